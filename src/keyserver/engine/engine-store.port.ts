import type { CertificateRow, KeyRow, PrincipalKind, PrincipalRow, RoleRow, TokenRow } from './engine-model.js';

/**
 * The key-server engine's storage. Synchronous on purpose: the engine's stores are in-process
 * (memory, SQLite through better-sqlite3), and a synchronous store keeps each engine operation atomic.
 */
export interface EngineStore {
  /**
   * Runs one engine operation as one unit of the store: its reads see one state of the store
   * throughout, and its writes land together (after a crash, all of them or none). Writes made before
   * the operation throws still land, as each would on its own: a refusal may follow a write (an
   * expired token is ended, then refused). When they cannot land, that failure is thrown instead of
   * the operation's outcome. A call made inside another joins it. Only what runs synchronously is
   * covered: an operation that waits (a certificate path check) makes the stretch after its wait a
   * unit of its own.
   */
  atomically<T>(operation: () => T): T;

  principalByName(name: string): PrincipalRow | undefined;
  principalById(principalId: string): PrincipalRow | undefined;
  putPrincipal(row: PrincipalRow): void;
  nextSystemId(): number;
  /** Principals ordered by name (code-unit order), strictly after `after`, at most `limit`, of one kind if given. */
  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): PrincipalRow[];
  /**
   * Removes the principal, and with it its memberships (as member and as group), its tokens and its
   * enrolled certificates. Keys it owns and ACL entries naming it stay (a key outlives its owner).
   */
  deletePrincipal(principalId: string): void;

  /** Group memberships: group principal id -> member principal ids. Putting an existing pair is a no-op. */
  groupIdsOf(memberId: string): string[];
  memberIdsOf(groupId: string): string[];
  putMembership(groupId: string, memberId: string): void;
  deleteMembership(groupId: string, memberId: string): void;
  /** Drops every membership the principal takes part in, as a member or as the group. */
  deleteMembershipsOf(principalId: string): void;

  /** Stored role definitions (built-in roles are defaults until stored). */
  role(name: string): RoleRow | undefined;
  roles(): RoleRow[];
  putRole(row: RoleRow): void;

  key(ttag: string): KeyRow | undefined;
  putKey(row: KeyRow): void;

  token(tokenHash: string): TokenRow | undefined;
  putToken(row: TokenRow): void;
  deleteToken(tokenHash: string): void;
  /** Ends every token of one principal (deleted or disabled). */
  deleteTokensOf(principalId: string): void;
  /** Every delegated token (one carrying `actingFor`), to re-check when a delegation may have broken. */
  delegatedTokens(): TokenRow[];
  /** Ends every delegated token a service minted (the service is disabled or deleted). */
  deleteTokensActingFor(serviceName: string): void;
  /** Drops every token whose lifetime ended at or before `now` (ms); answers how many went. */
  deleteExpiredTokens(now: number): number;

  certificate(id: string): CertificateRow | undefined;
  certificates(role: CertificateRow['role']): CertificateRow[];
  putCertificate(row: CertificateRow): void;
  deleteCertificate(id: string): void;

  /** A value the engine keeps across restarts (its secret for unknown-user decoys, ...). */
  setting(name: string): string | undefined;
  putSetting(name: string, value: string): void;

  close(): void;
}

/** An engine store whose data other connections may change too (a SQLite file). */
export interface SharedEngineStore extends EngineStore {
  /** A number that changes whenever another connection has committed a change since it was last read. */
  dataVersion(): number;
}
