import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import type { AuditChain } from '../../domain/audit/audit-chain.js';
import { type AuditChainPages, type AuditChainRange, type AuditChainSlice, entryOf, outcomeEntry } from '../../domain/audit/audit-entry.js';
import { type AuditPage, type AuditQuery, pageOf, resolveAuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import {
  AUDIT_COLUMNS,
  type AuditRow,
  type CheckpointRow,
  chainRangeSql,
  checkpointFromRow,
  type EntryRow,
  entryFromRow,
  queryConditions,
  recordFromRow,
} from './audit-sql.js';
import { readSqlChainPages } from './chain-pages.js';
import { startCheckpointTimer } from './checkpoint-timer.js';
import { migrateSqliteAudit } from './sqlite-audit-schema.js';
import { SqliteChainWriter } from './sqlite-chain-writer.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { SqliteWriteCheck } from './sqlite-write-check.js';

/**
 * The most memory SQLite's page cache of the audit connection holds, in KiB: SQLite's own default.
 * better-sqlite3 builds SQLite with 16,000 KiB instead, which the process fills as entries are appended
 * and keeps (bench row `bytes per session, through POST /login`); writes append at the end of the file
 * and a lookup by id is an index search, so the pages they touch stay in the cache.
 */
export const AUDIT_PAGE_CACHE_KIB = 2_000;

export interface SqliteAuditLogOptions {
  /** The database file (created with its directory when missing), or `:memory:`. */
  readonly file: string;
  /** How long a write waits for another process's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
  /** The writer's chain; without one entries are stored unchained (tests, benchmarks). */
  readonly chain?: AuditChain;
}

/**
 * The embedded default audit store: one SQLite file in WAL mode with `synchronous = FULL`, so an entry
 * is on disk when `append` or `complete` resolves (the fail-closed guarantee is only as good as that).
 * better-sqlite3 is synchronous, and a commit per write would stall every request on the disk: writes
 * go through a group commit (sqlite-group-commit.ts), one fsync for all the writes of one event-loop
 * turn. The chain is extended inside that commit (sqlite-chain-writer.ts): each entry is sealed as it
 * is inserted and a due checkpoint is written last, so the chain and the rows never disagree.
 */
export class SqliteAuditLog implements AuditLog {
  readonly #db: Database.Database;
  readonly #byId: Database.Statement;
  readonly #pending: Database.Statement;
  readonly #completed: Database.Statement;
  readonly #queries = new Map<string, Database.Statement>();
  readonly #writes: SqliteGroupCommit;
  readonly #entries: SqliteChainWriter;
  readonly #stopTimer: () => void;

  readonly #writeCheck: SqliteWriteCheck;

  private constructor(db: Database.Database, chain: AuditChain | undefined, file: string) {
    this.#db = db;
    const entries = new SqliteChainWriter(db, chain);
    this.#entries = entries;
    this.#byId = db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_record WHERE id = ?`);
    // `entry <> 'outcome'` as the partial index says it, so the lookup is an index search, not a scan.
    this.#pending = db.prepare(`SELECT ${AUDIT_COLUMNS}, entry FROM audit_entry WHERE id = ? AND entry <> 'outcome'`);
    this.#completed = db.prepare(`SELECT 1 FROM audit_entry WHERE id = ? AND entry = 'outcome'`);
    const writeCheck = new SqliteWriteCheck(db, file);
    this.#writeCheck = writeCheck;
    // The file is checked first: a commit into a deleted or replaced file would be acknowledged and lost.
    const hooks = {
      before: () => (writeCheck.assertSameFile(), entries.begin()),
      after: () => entries.end(),
      committed: () => entries.committed(),
    };
    this.#writes = new SqliteGroupCommit(db, (error) => (entries.failed(), this.#unavailable(error)), hooks);
    this.#stopTimer = chain === undefined ? () => undefined : startCheckpointTimer(chain, () => this.#writes.run(() => undefined));
  }

  /** Opens (creating and migrating) the database. Throws AuditUnavailableError when it cannot. */
  static open(options: SqliteAuditLogOptions): SqliteAuditLog {
    let db: Database.Database | undefined;
    try {
      if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
      db = new Database(options.file, { timeout: options.busyTimeoutMs ?? 5_000 });
      if (options.file !== ':memory:') chmodSync(options.file, 0o600);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma(`cache_size = -${AUDIT_PAGE_CACHE_KIB}`);
      migrateSqliteAudit(db);
      const log = new SqliteAuditLog(db, options.chain, options.file);
      // The head is read now, not at the first write: a chain shorter than its witness stops the boot.
      try {
        log.#entries.backfillHashes();
        log.#entries.resume();
      } catch (error) {
        log.#stopTimer();
        throw error;
      }
      return log;
    } catch (error) {
      db?.close();
      if (error instanceof AuditUnavailableError) throw error;
      throw new AuditUnavailableError(`cannot open the audit database ${options.file}`, error);
    }
  }

  async append(record: AuditRecord): Promise<void> {
    await this.#writes
      .run(() => this.#entries.store(entryOf(record)))
      .catch((error: unknown) => {
        if (isDuplicateId(error)) throw new AuditRecordExistsError(record.id);
        throw this.#unavailable(error);
      });
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    const [pending, completed] = [this.#pending, this.#completed];
    const changed = await this.#writes
      .run(() => {
        const row = pending.get(id) as (AuditRow & { entry: string }) | undefined;
        if (row?.entry !== 'pending' || completed.get(id) !== undefined) return false;
        this.#entries.store(outcomeEntry(recordFromRow(row, Number(row.at)), completion));
        return true;
      })
      .catch((error: unknown) => {
        // Another outcome entry for this id won the race: this completion is not the first.
        if (isDuplicateId(error)) return false;
        throw this.#unavailable(error);
      });
    return changed as boolean;
  }

  /** The bound of this connection's page cache, in KiB (`AUDIT_PAGE_CACHE_KIB`), as SQLite reports it. */
  pageCacheKiB(): number {
    return -(this.#db.pragma('cache_size', { simple: true }) as number);
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    const row = this.#run(() => this.#byId.get(id) as AuditRow | undefined);
    return row === undefined ? undefined : recordFromRow(row, Number(row.at));
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    const resolved = resolveAuditQuery(query);
    const params: unknown[] = [];
    const where = queryConditions(
      resolved,
      (v) => (params.push(v), '?'),
      (ms) => ms,
    );
    const sql = `SELECT ${AUDIT_COLUMNS} FROM audit_record WHERE ${where} ORDER BY at DESC, id DESC LIMIT ?`;
    // One statement, read whole inside SQLite's own read transaction: never a partial page.
    const rows = this.#run(() => this.#statement(sql).all(...params, resolved.limit + 1) as AuditRow[]);
    return pageOf(
      rows.map((row) => recordFromRow(row, Number(row.at))),
      resolved.limit,
    );
  }

  async readChain(range: AuditChainRange = {}): Promise<AuditChainSlice> {
    const sql = chainRangeSql(
      { entries: 'audit_entry', checkpoints: 'audit_checkpoint' },
      range,
      (params, v) => (params.push(v), '?'),
      (ms) => ms,
    );
    // Both reads in one read transaction: a consistent snapshot of entries and checkpoints.
    return this.#run(() =>
      this.#db.transaction(() => ({
        entries: (this.#db.prepare(sql.entries.sql).all(...sql.entries.params) as EntryRow[]).map((row) =>
          entryFromRow(row, Number(row.at)),
        ),
        checkpoints: (this.#db.prepare(sql.checkpoints.sql).all(...sql.checkpoints.params) as CheckpointRow[]).map((row) =>
          checkpointFromRow(row, Number(row.at)),
        ),
        partial: range.from !== undefined,
      }))(),
    );
  }

  /** Each page is one short synchronous read: the caller's turn ends between pages. */
  async readChainPages(range: AuditChainRange = {}, pageSize?: number): Promise<AuditChainPages> {
    return readSqlChainPages(
      {
        tables: { entries: 'audit_entry', checkpoints: 'audit_checkpoint' },
        placeholder: (params, v) => (params.push(v), '?'),
        toAt: (ms) => ms,
        fromAt: Number,
        rows: async <R>(sql: string, params: unknown[]) => this.#run(() => this.#statement(sql).all(...params) as R[]),
      },
      range,
      pageSize,
    );
  }

  /** Reads, then checks the write path (sqlite-write-check.ts): file identity, latest write, a probe write. */
  async ping(): Promise<void> {
    this.#run(() => this.#statement('SELECT 1').get());
    await this.#writeCheck.check((write) => this.#writes.run(write));
  }

  /** Commits what is queued, signs a last checkpoint of the head, and closes the file. */
  async close(): Promise<void> {
    this.#stopTimer();
    this.#writes.flush();
    if (!this.#db.open) return;
    this.#entries.closingCheckpoint();
    this.#db.close();
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#queries.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#queries.set(sql, statement);
    }
    return statement;
  }

  #run<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  #unavailable(error: unknown): AuditUnavailableError {
    if (error instanceof AuditUnavailableError) return error;
    return new AuditUnavailableError(this.#db.open ? 'the audit database failed' : 'the audit database is closed', error);
  }
}

function isDuplicateId(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
