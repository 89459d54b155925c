/**
 * What a release waits at before it reads protected material: it resolves once the operation's pending
 * audit record is stored, and rejects (AuditUnavailableError) when it cannot be (docs/spec.md §9.2).
 * The release does its first half (checks, connection, the wrap's ECDH) while the record is written,
 * then passes the gate; the transport's audit scope owns the record behind it.
 */
export type ReleaseGate = () => Promise<void>;
