import { AsyncLocalStorage } from 'node:async_hooks';
import type { EngineStore, SharedEngineStore } from '../engine/engine-store.port.js';

export interface EngineCacheOptions {
  /** How many rows each kind of row keeps (tokens, principals by id, roles, keys, memberships); default 10,000. */
  readonly rowsPerKind?: number;
}

const DEFAULT_ROWS_PER_KIND = 10_000;

/** The kinds of row the cache keeps, each by one id: those every operation reads. */
type RowKind = 'tokens' | 'principalsById' | 'roles' | 'keys' | 'groupIds';
const ROW_KINDS: readonly RowKind[] = ['tokens', 'principalsById', 'roles', 'keys', 'groupIds'];

/** The calls of the store other than its unit and its end. */
type StoreCall = Exclude<keyof EngineStore, 'atomically' | 'close'>;
type ArgsOf<C extends StoreCall> = Parameters<EngineStore[C]>;
/** The reads by one id, which the cache may keep. */
type KeepableCall = { [C in StoreCall]: ArgsOf<C> extends [string] ? C : never }[StoreCall];
/** The one row a write changes, found from its arguments. */
interface OneRow<C extends StoreCall> {
  readonly rows: RowKind;
  readonly id: (...args: ArgsOf<C>) => string;
}

/** A lookup that found nothing, kept for a read that keeps that answer too. */
const ABSENT = Symbol('absent');

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
 *
 * Each call of the store is one line below saying what it does to the cache: `#keeps` (a read kept by
 * its id), `#passes` (a read the store answers every time) or `#writes` (the rows a write may change).
 * A call added to EngineStore does not compile until it has its line.
 */
export class CachedEngineStore implements EngineStore {
  readonly #store: SharedEngineStore;
  readonly #rows: Readonly<Record<RowKind, Rows>>;
  #version = -1;
  /** Set within a unit of this cache (one runs at a time: the store below queues them). */
  readonly #unit = new AsyncLocalStorage<true>();
  /** A write was made in the current unit: its reads go to the store. */
  #wrote = false;

  constructor(store: SharedEngineStore, options: EngineCacheOptions = {}) {
    const limit = options.rowsPerKind ?? DEFAULT_ROWS_PER_KIND;
    this.#store = store;
    this.#rows = Object.fromEntries(ROW_KINDS.map((kind) => [kind, new Rows(limit)])) as Record<RowKind, Rows>;
  }

  // Reads every operation makes, kept by their one id.
  readonly token = this.#keeps('token', 'tokens');
  readonly principalById = this.#keeps('principalById', 'principalsById');
  /** A built-in role not redefined is answered undefined: that answer is kept too. */
  readonly role = this.#keeps('role', 'roles', { absentToo: true });
  readonly key = this.#keeps('key', 'keys');
  readonly groupIdsOf = this.#keeps('groupIdsOf', 'groupIds');

  /**
   * A login's first step looks its user up by name: were a known name kept and an unknown one not,
   * the lookup's time would tell them apart. Lookups by name always go to the store.
   */
  readonly principalByName = this.#passes('principalByName');
  // Reads no operation makes on its hot path.
  readonly principalsAfter = this.#passes('principalsAfter');
  readonly memberIdsOf = this.#passes('memberIdsOf');
  readonly roles = this.#passes('roles');
  readonly delegatedTokens = this.#passes('delegatedTokens');
  readonly certificate = this.#passes('certificate');
  readonly certificates = this.#passes('certificates');
  readonly setting = this.#passes('setting');
  readonly scheduledKeys = this.#passes('scheduledKeys');
  /** A page of the key list reads what the store holds now (a key kept here is read by its own call). */
  readonly keyPage = this.#passes('keyPage');
  readonly keysDueForDeletion = this.#passes('keysDueForDeletion');
  readonly unrecordedDestructions = this.#passes('unrecordedDestructions');
  readonly idempotencyRecord = this.#passes('idempotencyRecord');
  /** Aliases are read once per request that names one: the store answers (docs/spec.md §4.23 item 3). */
  readonly alias = this.#passes('alias');
  readonly aliasCount = this.#passes('aliasCount');
  readonly aliasesAfter = this.#passes('aliasesAfter');

  // Writes, each with the rows it may change.
  readonly putPrincipal = this.#writes('putPrincipal', ['principalsById']);
  readonly nextSystemId = this.#writes('nextSystemId', []);
  /** The schema ends the principal's memberships, tokens and certificates with it. */
  readonly deletePrincipal = this.#writes('deletePrincipal', ['tokens', 'principalsById', 'groupIds']);
  readonly putMembership = this.#writes('putMembership', ['groupIds']);
  readonly deleteMembership = this.#writes('deleteMembership', ['groupIds']);
  readonly deleteMembershipsOf = this.#writes('deleteMembershipsOf', ['groupIds']);
  readonly putRole = this.#writes('putRole', ['roles']);
  readonly putKey = this.#writes('putKey', [], { rows: 'keys', id: (row) => row.ttag });
  readonly putKeyVersion = this.#writes('putKeyVersion', [], { rows: 'keys', id: (ttag) => ttag });
  readonly putKeyTag = this.#writes('putKeyTag', [], { rows: 'keys', id: (ttag) => ttag });
  readonly deleteKeyTag = this.#writes('deleteKeyTag', [], { rows: 'keys', id: (ttag) => ttag });
  readonly destroyKey = this.#writes('destroyKey', [], { rows: 'keys', id: (ttag) => ttag });
  readonly setDeletionRecord = this.#writes('setDeletionRecord', []);
  /** The key's last use changes its row (docs/spec.md §4.23 item 6). */
  readonly recordKeyUse = this.#writes('recordKeyUse', [], { rows: 'keys', id: (ttag) => ttag });
  readonly putAlias = this.#writes('putAlias', []);
  readonly deleteAlias = this.#writes('deleteAlias', []);
  readonly putToken = this.#writes('putToken', [], { rows: 'tokens', id: (row) => row.tokenHash });
  readonly deleteToken = this.#writes('deleteToken', [], { rows: 'tokens', id: (tokenHash) => tokenHash });
  readonly deleteTokensOf = this.#writes('deleteTokensOf', ['tokens']);
  readonly deleteTokensActingFor = this.#writes('deleteTokensActingFor', ['tokens']);
  readonly deleteExpiredTokens = this.#writes('deleteExpiredTokens', ['tokens']);
  readonly putCertificate = this.#writes('putCertificate', []);
  readonly deleteCertificate = this.#writes('deleteCertificate', []);
  readonly putSetting = this.#writes('putSetting', []);
  readonly putIdempotencyRecord = this.#writes('putIdempotencyRecord', []);
  readonly deleteIdempotencyRecord = this.#writes('deleteIdempotencyRecord', []);
  readonly deleteIdempotencyRecords = this.#writes('deleteIdempotencyRecords', []);

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

  async close(): Promise<void> {
    this.#clear();
    await this.#store.close();
    // Off Node's list of AsyncLocalStorage instances, which each promise made afterwards pays for (SerialUnits.close).
    this.#unit.disable();
  }

  /** The store's own call, on the store (looked up at each call). */
  #call<C extends StoreCall>(call: C): (...args: ArgsOf<C>) => Promise<unknown> {
    return (...args) => (this.#store[call] as (...args: ArgsOf<C>) => Promise<unknown>).apply(this.#store, args);
  }

  /** A read by one id, kept in `rows`; a lookup that finds nothing is kept only when `absentToo`. */
  #keeps<C extends KeepableCall>(call: C, rows: RowKind, options: { readonly absentToo?: true } = {}): EngineStore[C] {
    const load = this.#call(call) as (id: string) => Promise<unknown>;
    const read = (id: string) => this.#read(this.#rows[rows], id, options.absentToo === true, () => load(id));
    return read as EngineStore[C];
  }

  /** A read the store answers every time. */
  #passes<C extends StoreCall>(call: C): EngineStore[C] {
    return this.#call(call) as EngineStore[C];
  }

  /** A write: first drops the kinds of row in `drops` whole and its `one` row, and keeps the rest of its unit off the cache. */
  #writes<C extends StoreCall>(call: C, drops: readonly RowKind[], one?: OneRow<C>): EngineStore[C] {
    const write = this.#call(call);
    const written = (...args: ArgsOf<C>) =>
      this.#inUnit(() => {
        for (const kind of drops) this.#rows[kind].clear();
        if (one !== undefined) this.#rows[one.rows].delete(one.id(...args));
        this.#wrote = true;
        return write(...args);
      });
    return written as EngineStore[C];
  }

  #read(rows: Rows, id: string, absentToo: boolean, load: () => Promise<unknown>): Promise<unknown> {
    return this.#inUnit(async () => {
      if (this.#wrote) return load();
      const kept = rows.get(id);
      if (kept !== undefined) return answerOf(kept);
      const row = await load();
      if (row !== undefined) rows.set(id, row);
      else if (absentToo) rows.set(id, ABSENT);
      return answerOf(row);
    });
  }

  #inUnit<T>(call: () => Promise<T>): Promise<T> {
    return this.#unit.getStore() === true ? call() : this.atomically(call);
  }

  /** Empties the cache when another connection has committed since the last look. */
  async #catchUp(): Promise<void> {
    const version = await this.#store.dataVersion();
    if (version === this.#version) return;
    this.#version = version;
    this.#clear();
  }

  #clear(): void {
    for (const kind of ROW_KINDS) this.#rows[kind].clear();
  }
}

/** A kept row as a read answers it: a list as the caller's own copy, ABSENT as undefined. */
function answerOf(kept: unknown): unknown {
  if (kept === ABSENT) return undefined;
  return Array.isArray(kept) ? [...kept] : kept;
}

/** At most `limit` rows of one kind; the oldest kept goes first. */
class Rows {
  readonly #rows = new Map<string, unknown>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(id: string): unknown {
    return this.#rows.get(id);
  }

  set(id: string, row: unknown): void {
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
