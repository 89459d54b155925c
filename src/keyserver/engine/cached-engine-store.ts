import type { CertificateRow, KeyRow, PrincipalKind, PrincipalRow, RoleRow, TokenRow } from './engine-model.js';
import type { EngineStore, SharedEngineStore } from './engine-store.port.js';

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
  #inUnit = false;
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
    this.#version = store.dataVersion();
  }

  atomically<T>(operation: () => T): T {
    if (this.#inUnit) return this.#store.atomically(operation);
    this.#inUnit = true;
    try {
      return this.#store.atomically(() => {
        // The unit's first statement: it opens the unit's read of the file, so the version is that state's.
        this.#catchUp();
        return operation();
      });
    } catch (error) {
      // A unit that wrote and then failed may have been rolled back, whole or in part.
      if (this.#wrote) this.#clear();
      throw error;
    } finally {
      this.#inUnit = false;
      this.#wrote = false;
    }
  }

  token(tokenHash: string): TokenRow | undefined {
    return this.#read(this.#tokens, tokenHash, () => this.#store.token(tokenHash));
  }

  principalById(principalId: string): PrincipalRow | undefined {
    return this.#read(this.#principalsById, principalId, () => this.#store.principalById(principalId));
  }

  role(name: string): RoleRow | undefined {
    const row = this.#read(this.#roles, name, () => this.#store.role(name) ?? NO_ROLE);
    return row === NO_ROLE ? undefined : row;
  }

  key(ttag: string): KeyRow | undefined {
    return this.#read(this.#keys, ttag, () => this.#store.key(ttag));
  }

  groupIdsOf(memberId: string): string[] {
    return [...(this.#read(this.#groupIds, memberId, () => this.#store.groupIdsOf(memberId)) ?? [])];
  }

  #read<T>(rows: Rows<T>, id: string, load: () => T | undefined): T | undefined {
    if (this.#wrote) return load();
    if (!this.#inUnit) this.#catchUp();
    const kept = rows.get(id);
    if (kept !== undefined) return kept;
    const row = load();
    if (row !== undefined) rows.set(id, row);
    return row;
  }

  /** Empties the cache when another connection has committed since the last look. */
  #catchUp(): void {
    const version = this.#store.dataVersion();
    if (version === this.#version) return;
    this.#version = version;
    this.#clear();
  }

  /** Before a write: drops the kinds of row it may change, and keeps the rest of its unit off the cache. */
  #changed(...kinds: Rows<unknown>[]): void {
    for (const rows of kinds) rows.clear();
    if (this.#inUnit) this.#wrote = true;
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
  principalByName(name: string): PrincipalRow | undefined {
    return this.#store.principalByName(name);
  }

  principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): PrincipalRow[] {
    return this.#store.principalsAfter(after, limit, kind);
  }

  memberIdsOf(groupId: string): string[] {
    return this.#store.memberIdsOf(groupId);
  }

  roles(): RoleRow[] {
    return this.#store.roles();
  }

  delegatedTokens(): TokenRow[] {
    return this.#store.delegatedTokens();
  }

  certificate(id: string): CertificateRow | undefined {
    return this.#store.certificate(id);
  }

  certificates(role: CertificateRow['role']): CertificateRow[] {
    return this.#store.certificates(role);
  }

  setting(name: string): string | undefined {
    return this.#store.setting(name);
  }

  // A write first drops the rows it may change.

  putPrincipal(row: PrincipalRow): void {
    this.#changed(this.#principalsById);
    this.#store.putPrincipal(row);
  }

  nextSystemId(): number {
    this.#changed();
    return this.#store.nextSystemId();
  }

  /** The schema ends the principal's memberships, tokens and certificates with it. */
  deletePrincipal(principalId: string): void {
    this.#changed(this.#tokens, this.#principalsById, this.#groupIds);
    this.#store.deletePrincipal(principalId);
  }

  putMembership(groupId: string, memberId: string): void {
    this.#changed(this.#groupIds);
    this.#store.putMembership(groupId, memberId);
  }

  deleteMembership(groupId: string, memberId: string): void {
    this.#changed(this.#groupIds);
    this.#store.deleteMembership(groupId, memberId);
  }

  deleteMembershipsOf(principalId: string): void {
    this.#changed(this.#groupIds);
    this.#store.deleteMembershipsOf(principalId);
  }

  putRole(row: RoleRow): void {
    this.#changed(this.#roles);
    this.#store.putRole(row);
  }

  putKey(row: KeyRow): void {
    this.#changed();
    this.#keys.delete(row.ttag);
    this.#store.putKey(row);
  }

  putToken(row: TokenRow): void {
    this.#changed();
    this.#tokens.delete(row.tokenHash);
    this.#store.putToken(row);
  }

  deleteToken(tokenHash: string): void {
    this.#changed();
    this.#tokens.delete(tokenHash);
    this.#store.deleteToken(tokenHash);
  }

  deleteTokensOf(principalId: string): void {
    this.#changed(this.#tokens);
    this.#store.deleteTokensOf(principalId);
  }

  deleteTokensActingFor(serviceName: string): void {
    this.#changed(this.#tokens);
    this.#store.deleteTokensActingFor(serviceName);
  }

  deleteExpiredTokens(now: number): number {
    this.#changed(this.#tokens);
    return this.#store.deleteExpiredTokens(now);
  }

  putCertificate(row: CertificateRow): void {
    this.#changed();
    this.#store.putCertificate(row);
  }

  deleteCertificate(id: string): void {
    this.#changed();
    this.#store.deleteCertificate(id);
  }

  putSetting(name: string, value: string): void {
    this.#changed();
    this.#store.putSetting(name, value);
  }

  close(): void {
    this.#clear();
    this.#store.close();
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
