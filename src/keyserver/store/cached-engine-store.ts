import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  CertificateRow,
  IdempotencyRow,
  KeyRow,
  KeyVersionRow,
  PrincipalKind,
  PrincipalRow,
  RoleRow,
  TokenRow,
} from '../engine/engine-model.js';
import type { EngineStore, SharedEngineStore } from '../engine/engine-store.port.js';

export interface EngineCacheOptions {
  /** How many rows each kind of row keeps (tokens, principals by id, roles, keys, memberships); default 10,000. */
  readonly rowsPerKind?: number;
}

const DEFAULT_ROWS_PER_KIND = 10_000;
/** `role(name)` answers undefined for a built-in role not redefined: that answer is kept too. */
const NO_ROLE = Symbol('no stored role');

/**
 * A read cache in front of the engine's store, for the rows every operation reads: the token, its
 * principal, the principal's groups and roles, the key. It never answers from an older state than the
 * store's:
 * - a write through it first drops the rows it may change (a token or key by its id; a kind of row
 *   whole where the write reaches several), and until the unit of the store that wrote ends, reads go
 *   to the store (the unit may still be rolled back; if it fails, the cache is emptied);
 * - another connection's commit (another process on the same file) empties it at the start of the next
 *   unit, or of the next read made outside a unit (`dataVersion`);
 * - a token that is not found, a principal or key that does not exist, is not kept: guessing fills nothing.
 * A token row is kept with its lifetime, which the engine checks on each use against its clock. Key
 * material stays as the store gives it (the SQLite store keeps it sealed until it is read).
 */
export class CachedEngineStore implements EngineStore {
  readonly #store: SharedEngineStore;
  readonly #tokens: Rows<TokenRow>;
  readonly #principalsById: Rows<PrincipalRow>;
  readonly #roles: Rows<RoleRow | typeof NO_ROLE>;
  readonly #keys: Rows<KeyRow>;
  readonly #groupIds: Rows<readonly string[]>;
  #version: number;
  /** Set within a unit of this cache (one runs at a time: the store below queues them). */
  readonly #unit = new AsyncLocalStorage<true>();
  /** A write was made in the current unit: its reads go to the store. */
  #wrote = false;

  constructor(store: SharedEngineStore, options: EngineCacheOptions = {}) {
    const limit = options.rowsPerKind ?? DEFAULT_ROWS_PER_KIND;
    this.#store = store;
    this.#tokens = new Rows(limit);
    this.#principalsById = new Rows(limit);
    this.#roles = new Rows(limit);
    this.#keys = new Rows(limit);
    this.#groupIds = new Rows(limit);
    this.#version = -1;
  }

  /**
   * The store below runs one unit at a time (SharedEngineStore); a call made outside any unit becomes
   * a unit of its own here, so every read and write happens inside one.
   */
  async atomically<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#unit.getStore() === true) return operation();
    let wrote = false;
    try {
      return await this.#store.atomically(() =>
        this.#unit.run(true, async () => {
          this.#wrote = false;
          // The unit's first statement: it opens the unit's read of the file, so the version is that state's.
          await this.#catchUp();
          try {
            return await operation();
          } finally {
            wrote = this.#wrote;
            this.#wrote = false;
          }
        }),
      );
    } catch (error) {
      // A unit that wrote and then failed may have been rolled back, whole or in part.
      if (wrote) this.#clear();
      throw error;
    }
  }

  #inUnit<T>(call: () => Promise<T>): Promise<T> {
    return this.#unit.getStore() === true ? call() : this.atomically(call);
  }

  token(tokenHash: string): Promise<TokenRow | undefined> {
    return this.#read(this.#tokens, tokenHash, () => this.#store.token(tokenHash));
  }

  principalById(principalId: string): Promise<PrincipalRow | undefined> {
    return this.#read(this.#principalsById, principalId, () => this.#store.principalById(principalId));
  }

  async role(name: string): Promise<RoleRow | undefined> {
    const row = await this.#read(this.#roles, name, async () => (await this.#store.role(name)) ?? NO_ROLE);
    return row === NO_ROLE ? undefined : row;
  }

  key(ttag: string): Promise<KeyRow | undefined> {
    return this.#read(this.#keys, ttag, () => this.#store.key(ttag));
  }

  async groupIdsOf(memberId: string): Promise<string[]> {
    return [...((await this.#read(this.#groupIds, memberId, () => this.#store.groupIdsOf(memberId))) ?? [])];
  }

  #read<T>(rows: Rows<T>, id: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    return this.#inUnit(async () => {
      if (this.#wrote) return load();
      const kept = rows.get(id);
      if (kept !== undefined) return kept;
      const row = await load();
      if (row !== undefined) rows.set(id, row);
      return row;
    });
  }

  /** Empties the cache when another connection has committed since the last look. */
  async #catchUp(): Promise<void> {
    const version = await this.#store.dataVersion();
    if (version === this.#version) return;
    this.#version = version;
    this.#clear();
  }

  /** Before a write: drops the kinds of row it may change, and keeps the rest of its unit off the cache. */
  #changed(...kinds: Rows<unknown>[]): void {
    for (const rows of kinds) rows.clear();
    this.#wrote = true;
  }

  #clear(): void {
    this.#tokens.clear();
    this.#principalsById.clear();
    this.#roles.clear();
    this.#keys.clear();
    this.#groupIds.clear();
  }

  // Reads no operation makes on its hot path go to the store.

  /**
   * A login's first step looks its user up by name: were a known name kept and an unknown one not,
   * the lookup's time would tell them apart. Lookups by name always go to the store.
   */
  principalByName(name: string): Promise<PrincipalRow | undefined> {
    return this.#store.principalByName(name);
  }

  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): Promise<PrincipalRow[]> {
    return this.#store.principalsAfter(after, limit, kind);
  }

  memberIdsOf(groupId: string): Promise<string[]> {
    return this.#store.memberIdsOf(groupId);
  }

  roles(): Promise<RoleRow[]> {
    return this.#store.roles();
  }

  delegatedTokens(): Promise<TokenRow[]> {
    return this.#store.delegatedTokens();
  }

  certificate(id: string): Promise<CertificateRow | undefined> {
    return this.#store.certificate(id);
  }

  certificates(role: CertificateRow['role']): Promise<CertificateRow[]> {
    return this.#store.certificates(role);
  }

  setting(name: string): Promise<string | undefined> {
    return this.#store.setting(name);
  }

  scheduledKeys(): Promise<string[]> {
    return this.#store.scheduledKeys();
  }

  idempotencyRecord(principalId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.#store.idempotencyRecord(principalId, key);
  }

  // A write first drops the rows it may change.

  putPrincipal(row: PrincipalRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#principalsById);
      return this.#store.putPrincipal(row);
    });
  }

  nextSystemId(): Promise<number> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.nextSystemId();
    });
  }

  /** The schema ends the principal's memberships, tokens and certificates with it. */
  deletePrincipal(principalId: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#tokens, this.#principalsById, this.#groupIds);
      return this.#store.deletePrincipal(principalId);
    });
  }

  putMembership(groupId: string, memberId: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#groupIds);
      return this.#store.putMembership(groupId, memberId);
    });
  }

  deleteMembership(groupId: string, memberId: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#groupIds);
      return this.#store.deleteMembership(groupId, memberId);
    });
  }

  deleteMembershipsOf(principalId: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#groupIds);
      return this.#store.deleteMembershipsOf(principalId);
    });
  }

  putRole(row: RoleRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#roles);
      return this.#store.putRole(row);
    });
  }

  putKey(row: KeyRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      this.#keys.delete(row.ttag);
      return this.#store.putKey(row);
    });
  }

  putKeyVersion(ttag: string, version: KeyVersionRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      this.#keys.delete(ttag);
      return this.#store.putKeyVersion(ttag, version);
    });
  }

  putToken(row: TokenRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      this.#tokens.delete(row.tokenHash);
      return this.#store.putToken(row);
    });
  }

  deleteToken(tokenHash: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      this.#tokens.delete(tokenHash);
      return this.#store.deleteToken(tokenHash);
    });
  }

  deleteTokensOf(principalId: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#tokens);
      return this.#store.deleteTokensOf(principalId);
    });
  }

  deleteTokensActingFor(serviceName: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed(this.#tokens);
      return this.#store.deleteTokensActingFor(serviceName);
    });
  }

  deleteExpiredTokens(now: number): Promise<number> {
    return this.#inUnit(() => {
      this.#changed(this.#tokens);
      return this.#store.deleteExpiredTokens(now);
    });
  }

  putCertificate(row: CertificateRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.putCertificate(row);
    });
  }

  deleteCertificate(id: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.deleteCertificate(id);
    });
  }

  putSetting(name: string, value: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.putSetting(name, value);
    });
  }

  putIdempotencyRecord(row: IdempotencyRow): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.putIdempotencyRecord(row);
    });
  }

  deleteIdempotencyRecord(principalId: string, key: string): Promise<void> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.deleteIdempotencyRecord(principalId, key);
    });
  }

  deleteIdempotencyRecords(createdUpTo: number): Promise<number> {
    return this.#inUnit(() => {
      this.#changed();
      return this.#store.deleteIdempotencyRecords(createdUpTo);
    });
  }

  async close(): Promise<void> {
    this.#clear();
    await this.#store.close();
  }
}

/** At most `limit` rows of one kind; the oldest kept goes first. */
class Rows<T> {
  readonly #rows = new Map<string, T>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id);
  }

  set(id: string, row: T): void {
    if (this.#rows.size >= this.#limit) this.#rows.delete(this.#rows.keys().next().value as string);
    this.#rows.set(id, row);
  }

  delete(id: string): void {
    this.#rows.delete(id);
  }

  clear(): void {
    this.#rows.clear();
  }
}
