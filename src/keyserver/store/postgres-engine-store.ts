import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { KeyUse } from '../../wire/key-view.js';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import { ConfigError } from '../config-error.js';
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
} from '../engine/engine-model.js';
import type { DurableEngineStore } from '../engine/engine-store.port.js';
import { keyPageStatement } from './key-page-sql.js';
import { migratePostgresEngine, storeLockName } from './postgres-engine-schema.js';
import { pgKeyIdsInUse, pgResealRows, pgRetiredKeyIds, pgRetireOldKeys } from './postgres-engine-sealing.js';
import { KEY_PARTS, PG_STATEMENTS, type PgStatement, restoreSql, snapshotSql } from './postgres-engine-statements.js';
import { describeStoredRow, unwritableInPostgres } from './postgres-restore-rows.js';
import { inTransaction, SERIALIZABLE, type Unit } from './postgres-transactions.js';
import { postgresTarget } from './postgres-url.js';
import {
  type AliasRecord,
  aliasOf,
  type CertificateRecord,
  certificateOf,
  type IdempotencyRecord,
  idempotencyOf,
  type KeyRecord,
  type KeyVersionRecord,
  type PrincipalRecord,
  type RoleRecord,
  roleOf,
  sealedKeyOf,
  sealedPrincipalOf,
  signingColumns,
  type TokenRecord,
  tokenOf,
} from './sqlite-engine-records.js';
import { keptMaterial, keyVersionId, type Sealed, sealContext } from './sqlite-engine-sealing.js';
import { STORE_TABLES, type StoredRow, type StoreSnapshot, type StoreTable, TABLE_ORDER } from './store-tables.js';

export interface PostgresEngineStoreOptions {
  /** `postgres://user:password@host:port/database`; its password never reaches a message. */
  readonly url: string;
  readonly keyring: MasterKeyring;
  /** Schema holding the tables (created when missing); `public` by default. */
  readonly schema?: string;
  readonly poolSize?: number;
  /** Bound on opening a connection or waiting for a free one, and on one statement (ms). */
  readonly timeoutMs?: number;
  /**
   * The store's serving lock, held for the store's life: `shared` (the default) by a serving key
   * server; `exclusive` by a master-key rotation, refused while any key server holds it shared.
   */
  readonly servingLock?: 'shared' | 'exclusive';
  /** Told about a failure of an idle pooled connection (the server restarted, the network dropped). */
  readonly onConnectionError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A key's row as `key` and a page of the key list read it (KEY_PARTS). */
type KeyWithParts = KeyRecord & {
  acl: [string, string, string | null][];
  versions: (Omit<KeyVersionRecord, 'material'> & { material: string })[];
  tags: Record<string, string>;
};

/** The statements that write: within a unit, each empties what the unit read (`#read`). */
const WRITES = /^(put|delete|next)/;

/** PostgreSQL's int8 as a number: times in ms and counters stay far below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The engine's store in PostgreSQL, shared by every key-server daemon of a deployment: the tables of
 * the SQLite store (store-tables.ts), sealed under the master keyring exactly as there, so a sealed
 * value moves between the two stores and PostgreSQL never holds a key, a verifier or a setting in the
 * clear. Each engine operation is one SERIALIZABLE transaction, run again (bounded, with jitter) when
 * PostgreSQL reports that a concurrent one made it fail: no acknowledged write is lost to another
 * daemon's, and no daemon acts on a state older than the last committed one. There is no read cache:
 * every operation reads what every daemon wrote.
 */
export class PostgresEngineStore implements DurableEngineStore {
  readonly #pool: pg.Pool;
  readonly #keyring: MasterKeyring;
  readonly #unit = new AsyncLocalStorage<Unit>();
  readonly #servingLock: ServingLock | undefined;
  #closed = false;

  private constructor(pool: pg.Pool, keyring: MasterKeyring, servingLock: ServingLock | undefined) {
    this.#pool = pool;
    this.#keyring = keyring;
    this.#servingLock = servingLock;
  }

  /**
   * Connects, creates or migrates the schema, and refuses a store whose rows are sealed under a master
   * key not given (the message names it). Errors name the server and database, never the password.
   */
  static async open(options: PostgresEngineStoreOptions): Promise<PostgresEngineStore> {
    const schema = options.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema)) throw new ConfigError(`key-server schema name "${schema}" is not a plain identifier`);
    const where = postgresTarget(options.url);
    const timeout = options.timeoutMs ?? 10_000;
    const connection: pg.ClientConfig = {
      connectionString: options.url,
      connectionTimeoutMillis: timeout,
      statement_timeout: timeout,
      query_timeout: timeout + 1_000,
      idle_in_transaction_session_timeout: 30_000,
      application_name: 'keygate-keyserver',
      options: `-c search_path=${schema}`,
      keepAlive: true,
      types: TYPES,
    };
    const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 });
    pool.on('error', (error) => options.onConnectionError?.(error));
    let lock: ServingLock | undefined;
    try {
      const client = await pool.connect();
      try {
        await migratePostgresEngine(client, schema);
      } finally {
        client.release();
      }
      const missing = (await pgKeyIdsInUse(pool)).filter((id) => !options.keyring.has(id));
      if (missing.length > 0) throw new ConfigError(`${where}: sealed under master key ${missing.join(', ')}, which was not given`);
      if ((options.servingLock ?? 'shared') === 'shared' && (await pgRetiredKeyIds(pool)).includes(options.keyring.current.id)) {
        throw new ConfigError(`${where}: master key ${options.keyring.current.id} was retired by rotate-master-key: give the key it wrote`);
      }
      lock = new ServingLock(connection, storeLockName(schema, 'serve'), options.servingLock ?? 'shared', options.onConnectionError);
      await lock.take();
      return new PostgresEngineStore(pool, options.keyring, lock);
    } catch (error) {
      await lock?.release();
      await pool.end().catch(() => undefined);
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`${where}: ${(error as Error).message}`);
    }
  }

  /**
   * One SERIALIZABLE transaction per operation; a call made inside one (same asynchronous context)
   * joins it. Writes made before the operation throws are committed, then the error is rethrown. A
   * serialization failure or deadlock rolls back and runs the whole operation again.
   */
  atomically<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#unit.getStore() !== undefined) return operation();
    return inTransaction(this.#pool, SERIALIZABLE, (unit) => this.#unit.run(unit, operation));
  }

  async #rows<R extends pg.QueryResultRow>(name: PgStatement, values: unknown[]): Promise<R[]> {
    const query = { name, text: PG_STATEMENTS[name], values };
    const unit = this.#unit.getStore();
    if (unit !== undefined && WRITES.test(name)) unit.reads.clear();
    if (unit !== undefined) return (await unit.query<R>(query)).rows;
    // Outside a unit a statement runs alone; a serialization failure there is retried as a unit would be.
    return this.atomically(async () => (await this.#unit.getStore()!.query<R>(query)).rows);
  }

  async #row<R extends pg.QueryResultRow>(name: PgStatement, values: unknown[]): Promise<R | undefined> {
    return (await this.#rows<R>(name, values))[0];
  }

  /**
   * Within a unit, a row it read already is answered again without a round trip: a SERIALIZABLE
   * transaction reads one snapshot, changed only by its own writes, and each write empties what the
   * unit kept. Nothing outlives the unit, so no other daemon's commit can be missed.
   */
  async #read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const reads = this.#unit.getStore()?.reads;
    if (reads?.has(key)) return reads.get(key) as T;
    const value = await load();
    reads?.set(key, value);
    return value;
  }

  readonly #open = (table: Sealed['table']) => (keyId: string | null, value: Buffer, row: string) =>
    keyId === null ? value : this.#keyring.open(keyId, value, sealContext(table, row));

  async principalByName(name: string): Promise<PrincipalRow | undefined> {
    return sealedPrincipalOf(await this.#row<PrincipalRecord>('principalByName', [name]), this.#open('principals'));
  }

  async principalById(principalId: string): Promise<PrincipalRow | undefined> {
    const record = await this.#read(`principal:${principalId}`, () => this.#row<PrincipalRecord>('principalById', [principalId]));
    return sealedPrincipalOf(record, this.#open('principals'));
  }

  async putPrincipal(row: PrincipalRow): Promise<void> {
    const verifier = row.srp === undefined ? undefined : this.#keyring.seal(row.srp.verifier, sealContext('principals', row.principalId));
    await this.#rows('putPrincipal', [
      row.name,
      row.principalId,
      row.kind,
      row.systemId,
      row.displayName ?? null,
      row.disabled ? 1 : 0,
      JSON.stringify(row.roles),
      row.srp?.salt ?? null,
      verifier?.sealed ?? null,
      verifier?.keyId ?? null,
      row.senderKey === undefined ? null : JSON.stringify(row.senderKey),
      row.delegates === undefined ? null : JSON.stringify(row.delegates),
      row.provisionedBy ?? null,
      row.createdAt,
    ]);
  }

  async nextSystemId(): Promise<number> {
    return (await this.#row<{ value: number }>('nextSystemId', []))!.value;
  }

  async principalsAfter(after: string | undefined, limit: number, kind?: PrincipalKind): Promise<PrincipalRow[]> {
    const records = await this.#rows<PrincipalRecord>('principalsAfter', [after ?? null, kind ?? null, limit]);
    return records.map((record) => sealedPrincipalOf(record, this.#open('principals'))!);
  }

  /** The row goes, and with it (the schema's trigger) its memberships, tokens and enrolled certificates. */
  async deletePrincipal(principalId: string): Promise<void> {
    await this.#rows('deletePrincipal', [principalId]);
  }

  async groupIdsOf(memberId: string): Promise<string[]> {
    const ids = await this.#read(`groups:${memberId}`, async () =>
      (await this.#rows<{ group_id: string }>('groupIdsOf', [memberId])).map((row) => row.group_id),
    );
    return [...ids];
  }

  async memberIdsOf(groupId: string): Promise<string[]> {
    return (await this.#rows<{ member_id: string }>('memberIdsOf', [groupId])).map((row) => row.member_id);
  }

  async putMembership(groupId: string, memberId: string): Promise<void> {
    await this.#rows('putMembership', [groupId, memberId]);
  }

  async deleteMembership(groupId: string, memberId: string): Promise<void> {
    await this.#rows('deleteMembership', [groupId, memberId]);
  }

  async deleteMembershipsOf(principalId: string): Promise<void> {
    await this.#rows('deleteMembershipsOf', [principalId]);
  }

  /** Every stored role, read whole (a handful of rows), so that the token's read can bring them along. */
  #roles(): Promise<RoleRecord[]> {
    return this.#read('roles', () => this.#rows<RoleRecord>('roles', []));
  }

  async role(name: string): Promise<RoleRow | undefined> {
    return roleOf((await this.#roles()).find((record) => record.name === name));
  }

  async roles(): Promise<RoleRow[]> {
    return (await this.#roles()).map((record) => roleOf(record)!);
  }

  async putRole(row: RoleRow): Promise<void> {
    await this.#rows('putRole', [row.name, JSON.stringify(row.operations)]);
  }

  async key(ttag: string): Promise<KeyRow | undefined> {
    const record = await this.#row<KeyWithParts>('key', [ttag]);
    return record === undefined ? undefined : this.#keyOf(record);
  }

  #keyOf(record: KeyWithParts): KeyRow {
    const versions = record.versions.map((stored) => ({ ...stored, material: Buffer.from(stored.material, 'base64') }));
    return sealedKeyOf(record, record.acl, this.#open('keys'), versions, this.#open('key_versions'), record.tags);
  }

  /**
   * A page of the key list in one round trip (key-page-sql.ts): each key with its ACL, versions and
   * tags. Each shape of query is a named statement, parsed and planned once per connection.
   */
  async keyPage(query: KeyPageQuery): Promise<KeyRow[]> {
    const { text, values } = keyPageStatement(query, 'postgres', KEY_PARTS);
    const name = `keyPage_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    const run = (unit: Unit) => unit.query<KeyWithParts>({ name, text, values });
    const unit = this.#unit.getStore();
    const result = unit === undefined ? await this.atomically(() => run(this.#unit.getStore()!)) : await run(unit);
    return result.rows.map((record) => this.#keyOf(record));
  }

  async putKeyTag(ttag: string, name: string, value: string): Promise<void> {
    await this.#rows('putKeyTag', [ttag, name, value]);
  }

  async deleteKeyTag(ttag: string, name: string): Promise<void> {
    await this.#rows('deleteKeyTag', [ttag, name]);
  }

  /** Adds a version, its material sealed to '<ttag> <version>'; a version stored already is refused by the table. */
  async putKeyVersion(ttag: string, version: KeyVersionRow): Promise<void> {
    const id = keyVersionId(ttag, version.version);
    const material = this.#keyring.seal(version.material, sealContext('key_versions', id));
    await this.atomically(async () => {
      await this.#rows('putKeyWriteLock', [ttag]);
      await this.#rows('putKeyVersion', [id, ttag, version.version, material.sealed, material.keyId, version.createdAt]);
    });
  }

  async recordKeyUse(ttag: string, at: number, operation: KeyUse): Promise<void> {
    await this.#rows('putKeyUse', [at, operation, ttag]);
  }

  async alias(name: string): Promise<AliasRow | undefined> {
    const record = await this.#row<AliasRecord>('alias', [name]);
    return record === undefined ? undefined : aliasOf(record);
  }

  async putAlias(row: AliasRow): Promise<void> {
    await this.#rows('putAlias', [row.name, row.ttag, row.createdAt, row.updatedAt]);
  }

  async deleteAlias(name: string): Promise<void> {
    await this.#rows('deleteAlias', [name]);
  }

  async aliasCount(ttag: string): Promise<number> {
    return (await this.#row<{ count: number }>('aliasCount', [ttag]))?.count ?? 0;
  }

  async aliasesAfter(query: AliasQuery): Promise<AliasRow[]> {
    const records = await this.#rows<AliasRecord>('aliasesAfter', [
      query.after ?? null,
      query.ttag ?? null,
      query.prefix ?? null,
      query.within ?? null,
      query.reachedBy ?? null,
      query.limit,
    ]);
    return records.map(aliasOf);
  }

  /** Writes the key and replaces its whole ACL in one statement, keeping the entries' order. */
  async putKey(row: KeyRow): Promise<void> {
    const material = keptMaterial(row, this.#keyring);
    const acl = [...row.acl];
    await this.#rows('putKey', [
      row.ttag,
      row.nid,
      material.sealed,
      material.keyId,
      row.owner,
      row.label ?? null,
      row.createdAt,
      row.expiresAt ?? null,
      row.expired ? 1 : 0,
      row.aclRevision,
      acl.map(([principalId]) => principalId),
      acl.map(([, rights]) => JSON.stringify(rights)),
      row.minVersion,
      row.rotationPeriod ?? null,
      row.disabled ? 1 : 0,
      row.deletionAt ?? null,
      row.deletedAt ?? null,
      ...signingColumns(row),
      acl.map(([principalId]) => {
        const conditions = row.aclConditions?.get(principalId);
        return conditions === undefined ? null : JSON.stringify(conditions);
      }),
    ]);
  }

  async scheduledKeys(): Promise<string[]> {
    return (await this.#rows<{ ttag: string }>('scheduledKeys', [])).map((row) => row.ttag);
  }

  async keysDueForDeletion(now: number): Promise<string[]> {
    return (await this.#rows<{ ttag: string }>('keysDueForDeletion', [now])).map((row) => row.ttag);
  }

  async destroyKey(ttag: string, deletedAt: number): Promise<void> {
    await this.#rows('putTombstone', [ttag, deletedAt]);
  }

  async unrecordedDestructions(now: number, limit: number): Promise<{ ttag: string; deletedAt: number }[]> {
    const rows = await this.#rows<{ ttag: string; deleted_at: number }>('unrecordedDestructions', [now, limit]);
    return rows.map((row) => ({ ttag: row.ttag, deletedAt: row.deleted_at }));
  }

  async setDeletionRecord(ttag: string, until: number | null): Promise<void> {
    await this.#rows('putDeletionRecord', [ttag, until]);
  }

  async token(tokenHash: string): Promise<TokenRow | undefined> {
    const record = await this.#row<TokenRecord & Record<string, unknown>>('tokenAndHolder', [tokenHash]);
    if (record === undefined) return undefined;
    const reads = this.#unit.getStore()?.reads;
    if (reads !== undefined) {
      const holder = Object.fromEntries(STORE_TABLES.principals.map((column) => [column, record[`p.${column}`]]));
      reads.set(`principal:${record.principal_id}`, record['p.principal_id'] === null ? undefined : (holder as unknown as PrincipalRecord));
      reads.set(`groups:${record.principal_id}`, record.groupIds);
      reads.set('roles', record.roles);
    }
    return tokenOf(record);
  }

  async putToken(row: TokenRow): Promise<void> {
    const scope = row.scope === undefined ? null : JSON.stringify(row.scope);
    await this.#rows('putToken', [row.tokenHash, row.principalId, row.issuedAt, row.expiresAt ?? null, scope, row.actingFor ?? null]);
  }

  async deleteToken(tokenHash: string): Promise<void> {
    await this.#rows('deleteToken', [tokenHash]);
  }

  async deleteTokensOf(principalId: string): Promise<void> {
    await this.#rows('deleteTokensOf', [principalId]);
  }

  async delegatedTokens(): Promise<TokenRow[]> {
    return (await this.#rows<TokenRecord>('delegatedTokens', [])).map(tokenOf);
  }

  async deleteTokensActingFor(serviceName: string): Promise<void> {
    await this.#rows('deleteTokensActingFor', [serviceName]);
  }

  async deleteExpiredTokens(now: number): Promise<number> {
    const query = { name: 'deleteExpiredTokens', text: PG_STATEMENTS.deleteExpiredTokens, values: [now] };
    const run = async (unit: Unit) => {
      unit.reads.clear();
      return (await unit.query(query)).rowCount ?? 0;
    };
    const unit = this.#unit.getStore();
    return unit === undefined ? this.atomically(() => run(this.#unit.getStore()!)) : run(unit);
  }

  async certificate(id: string): Promise<CertificateRow | undefined> {
    return certificateOf(await this.#row<CertificateRecord>('certificate', [id]));
  }

  async certificates(role: CertificateRow['role']): Promise<CertificateRow[]> {
    return (await this.#rows<CertificateRecord>('certificatesByRole', [role])).map((record) => certificateOf(record)!);
  }

  async putCertificate(row: CertificateRow): Promise<void> {
    await this.#rows('putCertificate', [row.id, row.pem, row.role, row.principalId ?? null, row.createdAt]);
  }

  async deleteCertificate(id: string): Promise<void> {
    await this.#rows('deleteCertificate', [id]);
  }

  async idempotencyRecord(principalId: string, key: string): Promise<IdempotencyRow | undefined> {
    return idempotencyOf(await this.#row<IdempotencyRecord>('idempotencyRecord', [principalId, key]));
  }

  async putIdempotencyRecord(row: IdempotencyRow): Promise<void> {
    await this.#rows('putIdempotencyRecord', [row.principalId, row.key, row.operation, row.fingerprint, row.answer, row.createdAt]);
  }

  async deleteIdempotencyRecord(principalId: string, key: string): Promise<void> {
    await this.#rows('deleteIdempotencyRecord', [principalId, key]);
  }

  async deleteIdempotencyRecords(createdUpTo: number): Promise<number> {
    const query = { name: 'deleteIdempotencyRecords', text: PG_STATEMENTS.deleteIdempotencyRecords, values: [createdUpTo] };
    const run = async (unit: Unit) => {
      unit.reads.clear();
      return (await unit.query(query)).rowCount ?? 0;
    };
    const unit = this.#unit.getStore();
    return unit === undefined ? this.atomically(() => run(this.#unit.getStore()!)) : run(unit);
  }

  async setting(name: string): Promise<string | undefined> {
    const record = await this.#row<{ value: string; value_key_id: string | null }>('setting', [name]);
    if (record === undefined || record.value_key_id === null) return record?.value;
    return this.#open('settings')(record.value_key_id, Buffer.from(record.value, 'base64'), name).toString('utf8');
  }

  async putSetting(name: string, value: string): Promise<void> {
    const { keyId, sealed } = this.#keyring.seal(Buffer.from(value, 'utf8'), sealContext('settings', name));
    await this.#rows('putSetting', [name, sealed.toString('base64'), keyId]);
  }

  /** Every backed-up table, read in one REPEATABLE READ transaction: one state of the store. */
  snapshot(): Promise<StoreSnapshot> {
    return inTransaction(this.#pool, 'REPEATABLE READ READ ONLY', async (unit) => {
      const tables = {} as Record<StoreTable, StoredRow[]>;
      for (const table of TABLE_ORDER) tables[table] = (await unit.query<StoredRow>(snapshotSql(table))).rows;
      return { tables };
    });
  }

  /**
   * Writes a snapshot in one transaction, refused (nothing written) unless the store is empty, or when
   * a row cannot be written: a refusal names the row (postgres-restore-rows.ts), never its values.
   */
  restore(snapshot: StoreSnapshot): Promise<void> {
    return inTransaction(this.#pool, SERIALIZABLE, async (unit) => {
      const { empty } = (await unit.query<{ empty: boolean }>(PG_STATEMENTS.isEmpty)).rows[0]!;
      if (!empty) throw new ConfigError('restore: the PostgreSQL store is not empty (principals, keys, certificates, roles or settings)');
      const unwritable = unwritableInPostgres(snapshot);
      if (unwritable !== undefined) throw new ConfigError(`restore: ${unwritable}; nothing was written`);
      for (const table of TABLE_ORDER) {
        const sql = restoreSql(table);
        for (const row of snapshot.tables[table]) {
          await unit
            .query(
              sql,
              STORE_TABLES[table].map((column) => row[column] ?? null),
            )
            .catch((error: Error) => {
              // The transaction is rolled back (a failed statement aborts it): nothing of the restore stays.
              throw new ConfigError(
                `restore: cannot write ${describeStoredRow(table, row)}: ${error.message.split('\n')[0]}; nothing was written`,
              );
            });
        }
      }
    });
  }

  keyIdsInUse(): Promise<string[]> {
    return pgKeyIdsInUse(this.#pool);
  }

  /**
   * Rewraps every sealed value under the keyring's current key and retires its other keys
   * (`pgRetireOldKeys`), in one transaction: until it commits, the old key still opens every row, and
   * from then on no daemon can seal under an old key again. Answers how many values were rewritten.
   */
  rewrap(keyring: MasterKeyring = this.#keyring): Promise<number> {
    return inTransaction(this.#pool, SERIALIZABLE, async (unit) => {
      const rows = await pgResealRows(unit, keyring);
      await pgRetireOldKeys(unit, keyring);
      return rows;
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#servingLock?.release();
    await this.#pool.end();
    // Off Node's list of AsyncLocalStorage instances, which each promise made afterwards pays for (SerialUnits.close).
    this.#unit.disable();
  }
}

/** The exclusive serving lock was asked for while a key server serves the store. */
export class StoreInUseError extends ConfigError {
  constructor() {
    super('a key-server daemon serves this PostgreSQL store: stop every daemon on it first');
    this.name = 'StoreInUseError';
  }
}

/**
 * Takes the store's serving lock, shared, on a connection of its own kept for the store's life: every
 * serving daemon holds it, and a master-key rotation (which takes it exclusively) is refused
 * meanwhile. Should that connection fail (PostgreSQL restarted), the lock is taken again.
 */
class ServingLock {
  readonly #options: pg.ClientConfig;
  readonly #name: string;
  readonly #mode: 'shared' | 'exclusive';
  readonly #onError: ((error: Error) => void) | undefined;
  #client: pg.Client | undefined;
  #closed = false;

  constructor(options: pg.ClientConfig, name: string, mode: 'shared' | 'exclusive', onError: ((error: Error) => void) | undefined) {
    this.#options = options;
    this.#name = name;
    this.#mode = mode;
    this.#onError = onError;
  }

  async take(): Promise<void> {
    const client = new pg.Client(this.#options);
    client.on('error', (error) => {
      this.#onError?.(error);
      if (this.#client === client && this.#mode === 'shared') this.#retake();
    });
    try {
      await client.connect();
      if (this.#mode === 'shared') await client.query('SELECT pg_advisory_lock_shared(hashtext($1))', [this.#name]);
      else {
        const taken = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS taken', [this.#name]);
        if (!taken.rows[0]!.taken) throw new StoreInUseError();
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) await client.end().catch(() => undefined);
    else this.#client = client;
  }

  #retake(): void {
    this.#client = undefined;
    const again = () => {
      if (this.#closed) return;
      this.take().catch(() => setTimeout(again, 1_000).unref());
    };
    setTimeout(again, 1_000).unref();
  }

  async release(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
