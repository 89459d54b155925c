import type { KeyUse } from '../../wire/key-view.js';
import type { StoreSnapshot } from '../store/store-tables.js';
import type {
  AliasQuery,
  AliasRow,
  CertificateRow,
  IdempotencyRow,
  KeyPageQuery,
  KeyRow,
  KeyVersionRow,
  PrincipalKind,
  PrincipalRow,
  RoleRow,
  TokenRow,
} from './engine-model.js';

/**
 * The key-server engine's storage. Asynchronous, so one engine runs on a store in memory, in a SQLite
 * file, or in PostgreSQL shared by several key servers.
 */
export interface EngineStore {
  /**
   * Runs one engine operation as one unit of the store: its reads see one state of the store
   * throughout, and its writes land together (after a crash, all of them or none), isolated from every
   * other unit, whichever process runs it. Writes made before the operation throws still land, as each
   * would on its own: a refusal may follow a write (an expired token is ended, then refused). When they
   * cannot land, that failure is thrown instead of the operation's outcome. A call made inside another
   * (in the same asynchronous context) joins it.
   *
   * A store shared by several processes may run the operation again when a concurrent unit made it
   * fail before anything of it landed (a serialization failure): an operation has no effect outside
   * the store until it returns.
   */
  atomically<T>(operation: () => Promise<T>): Promise<T>;

  principalByName(name: string): Promise<PrincipalRow | undefined>;
  principalById(principalId: string): Promise<PrincipalRow | undefined>;
  putPrincipal(row: PrincipalRow): Promise<void>;
  nextSystemId(): Promise<number>;
  /** Principals ordered by name (code-unit order), strictly after `after`, at most `limit`, of one kind if given. */
  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): Promise<PrincipalRow[]>;
  /**
   * Removes the principal, and with it its memberships (as member and as group), its tokens and its
   * enrolled certificates. Keys it owns and ACL entries naming it stay (a key outlives its owner).
   */
  deletePrincipal(principalId: string): Promise<void>;

  /** Group memberships: group principal id -> member principal ids. Putting an existing pair is a no-op. */
  groupIdsOf(memberId: string): Promise<string[]>;
  memberIdsOf(groupId: string): Promise<string[]>;
  putMembership(groupId: string, memberId: string): Promise<void>;
  deleteMembership(groupId: string, memberId: string): Promise<void>;
  /** Drops every membership the principal takes part in, as a member or as the group. */
  deleteMembershipsOf(principalId: string): Promise<void>;

  /** Stored role definitions (built-in roles are defaults until stored). */
  role(name: string): Promise<RoleRow | undefined>;
  roles(): Promise<RoleRow[]>;
  putRole(row: RoleRow): Promise<void>;

  key(ttag: string): Promise<KeyRow | undefined>;
  /** Writes the key's fields and its whole ACL; its later versions stay as stored (`laterVersions` is not read). */
  putKey(row: KeyRow): Promise<void>;
  /** Adds a version to a stored key; versions are never changed or removed once stored. */
  putKeyVersion(ttag: string, version: KeyVersionRow): Promise<void>;
  /**
   * A page of the key list (docs/spec.md §4.23 item 1, KeyPageQuery): one read of the store, served by
   * the list's indexes on a durable store, each key with its ACL, versions and tags.
   */
  keyPage(query: KeyPageQuery): Promise<KeyRow[]>;
  /** Sets one tag of a stored key, replacing its value (docs/spec.md §4.23 item 2). */
  putKeyTag(ttag: string, name: string, value: string): Promise<void>;
  /** Removes one tag of a key; a tag it does not carry changes nothing. */
  deleteKeyTag(ttag: string, name: string): Promise<void>;
  /** The ttags of the keys that carry a rotation period and were not expired on purpose, in ttag order. */
  scheduledKeys(): Promise<string[]>;
  /** The ttags of the keys pending deletion whose `deletionAt` is at or before `now` (ms), in ttag order. */
  keysDueForDeletion(now: number): Promise<string[]>;
  /**
   * Destroys a stored key (docs/spec.md §4.23 item 5): erases the material of every version (the row's
   * material emptied and unsealed, its later versions removed), removes the aliases that name it, and
   * keeps its row as a tombstone with `deletedAt` and an audit record not yet stored (unclaimed).
   */
  destroyKey(ttag: string, deletedAt: number): Promise<void>;
  /**
   * Up to `limit` tombstones whose audit record is not stored and not claimed past `now` (ms): an
   * unclaimed one, or one whose claim lapsed. In ttag order.
   */
  unrecordedDestructions(now: number, limit: number): Promise<{ ttag: string; deletedAt: number }[]>;
  /** Claims a tombstone's audit record until `until` (ms), or marks it stored (null). */
  setDeletionRecord(ttag: string, until: number | null): Promise<void>;
  /**
   * Writes the key's last use (docs/spec.md §4.23 item 6) and nothing else of its row; the engine calls
   * it at most once a minute per key. An unknown key is left alone.
   */
  recordKeyUse(ttag: string, at: number, operation: KeyUse): Promise<void>;

  /** An alias by name (docs/spec.md §4.23 item 3). */
  alias(name: string): Promise<AliasRow | undefined>;
  /** Writes the alias, replacing the one of that name (a move). */
  putAlias(row: AliasRow): Promise<void>;
  deleteAlias(name: string): Promise<void>;
  /** How many aliases name the key. */
  aliasCount(ttag: string): Promise<number>;
  /** The aliases the query selects, by name (code-unit order), at most `limit`. */
  aliasesAfter(query: AliasQuery): Promise<AliasRow[]>;

  token(tokenHash: string): Promise<TokenRow | undefined>;
  putToken(row: TokenRow): Promise<void>;
  deleteToken(tokenHash: string): Promise<void>;
  /** Ends every token of one principal (deleted or disabled). */
  deleteTokensOf(principalId: string): Promise<void>;
  /** Every delegated token (one carrying `actingFor`), to re-check when a delegation may have broken. */
  delegatedTokens(): Promise<TokenRow[]>;
  /** Ends every delegated token a service minted (the service is disabled or deleted). */
  deleteTokensActingFor(serviceName: string): Promise<void>;
  /** Drops every token whose lifetime ended at or before `now` (ms); answers how many went. */
  deleteExpiredTokens(now: number): Promise<number>;

  certificate(id: string): Promise<CertificateRow | undefined>;
  certificates(role: CertificateRow['role']): Promise<CertificateRow[]>;
  putCertificate(row: CertificateRow): Promise<void>;
  deleteCertificate(id: string): Promise<void>;

  /** The caller's idempotency record under `key`, whatever its age. */
  idempotencyRecord(principalId: string, key: string): Promise<IdempotencyRow | undefined>;
  /** Writes the record, replacing one of the same caller and key (one whose window has passed). */
  putIdempotencyRecord(row: IdempotencyRow): Promise<void>;
  /** Drops the caller's record under `key`, if any (an undone creation: docs/spec.md §4.22 item 7). */
  deleteIdempotencyRecord(principalId: string, key: string): Promise<void>;
  /** Drops every idempotency record created at or before `time` (ms); answers how many went. */
  deleteIdempotencyRecords(createdUpTo: number): Promise<number>;

  /** A value the engine keeps across restarts (its secret for unknown-user decoys, ...). */
  setting(name: string): Promise<string | undefined>;
  putSetting(name: string, value: string): Promise<void>;

  close(): Promise<void>;
}

/** An engine store whose data other connections may change too (a SQLite file). */
export interface SharedEngineStore extends EngineStore {
  /** A number that changes whenever another connection has committed a change since it was last read. */
  dataVersion(): Promise<number>;
}

/**
 * A store that outlives its process (SQLite, PostgreSQL), and so can be backed up and restored: its
 * rows move as stored, sealed columns still sealed, between stores of either kind (store-tables.ts).
 */
export interface DurableEngineStore extends EngineStore {
  /** Every backed-up table's rows as stored (store-tables.ts), all read in one consistent state. */
  snapshot(): Promise<StoreSnapshot>;
  /**
   * Writes a snapshot into this store, in one unit. Refused (nothing written) unless the store is empty:
   * no principal, key, certificate, role or setting.
   */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** The master key ids the rows are sealed under now. */
  keyIdsInUse(): Promise<string[]>;
}
