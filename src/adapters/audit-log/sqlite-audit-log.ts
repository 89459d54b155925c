import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { pageOf, resolveAuditQuery, type AuditPage, type AuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { SqliteWriteCheck } from './sqlite-write-check.js';
import { AUDIT_COLUMNS, completionAssignments, queryConditions, recordFromRow, rowValues, type AuditRow } from './audit-sql.js';

/**
 * The schema, one entry per version; `PRAGMA user_version` says how many have run. A migration is
 * appended here, never edited once released.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE audit_record (
     id TEXT PRIMARY KEY NOT NULL,
     at INTEGER NOT NULL,
     request_id TEXT NOT NULL,
     principal TEXT,
     session_ref TEXT,
     operation TEXT NOT NULL,
     object TEXT,
     outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'ok', 'denied', 'error')),
     status INTEGER NOT NULL,
     code TEXT
   ) STRICT;
   CREATE INDEX audit_record_newest ON audit_record (at DESC, id DESC);
   CREATE INDEX audit_record_principal ON audit_record (principal, at DESC, id DESC);`,
];

export interface SqliteAuditLogOptions {
  /** The database file (created with its directory when missing), or `:memory:`. */
  readonly file: string;
  /** How long a write waits for another process's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
}

/**
 * The embedded default audit store: one SQLite file in WAL mode with `synchronous = FULL`, so a record
 * is on disk when `append` or `complete` resolves (the fail-closed guarantee is only as good as that).
 * better-sqlite3 is synchronous, and a commit per write would stall every request on the disk: writes
 * go through a group commit (sqlite-group-commit.ts), one fsync for all the writes of one event-loop turn.
 */
export class SqliteAuditLog implements AuditLog {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #queries = new Map<string, Database.Statement>();
  readonly #writes: SqliteGroupCommit;
  readonly #writeCheck: SqliteWriteCheck;

  private constructor(db: Database.Database, file: string) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO audit_record (${AUDIT_COLUMNS}) VALUES (${AUDIT_COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    this.#byId = db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_record WHERE id = ?`);
    this.#writes = new SqliteGroupCommit(db, (error) => this.#unavailable(error));
    this.#writeCheck = new SqliteWriteCheck(db, file);
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
      migrate(db);
      return new SqliteAuditLog(db, options.file);
    } catch (error) {
      db?.close();
      if (error instanceof AuditUnavailableError) throw error;
      throw new AuditUnavailableError(`cannot open the audit database ${options.file}`, error);
    }
  }

  async append(record: AuditRecord): Promise<void> {
    const values = rowValues(record, (ms) => ms);
    await this.#writes
      .run(() => this.#insert.run(...values))
      .then(
        () => this.#writeCheck.noteWrite(),
        (error: unknown) => {
          if (isDuplicateId(error)) throw new AuditRecordExistsError(record.id);
          throw this.#failedWrite(error);
        },
      );
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    const params: unknown[] = [];
    const sql = `UPDATE audit_record SET ${completionAssignments(completion, (v) => (params.push(v), '?'))} WHERE id = ? AND outcome = 'pending'`;
    const changed = await this.#writes
      .run(() => this.#statement(sql).run(...params, id).changes === 1)
      .catch((error: unknown) => {
        throw this.#failedWrite(error);
      });
    this.#writeCheck.noteWrite();
    return changed as boolean;
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

  /** Reads, then checks the write path (sqlite-write-check.ts): file identity, latest write, a probe write. */
  async ping(): Promise<void> {
    this.#run(() => this.#statement('SELECT 1').get());
    await this.#writeCheck.check((write) => this.#writes.run(write));
  }

  async close(): Promise<void> {
    this.#writes.flush();
    if (this.#db.open) this.#db.close();
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

  #failedWrite(error: unknown): AuditUnavailableError {
    const failure = this.#unavailable(error);
    if (this.#db.open) this.#writeCheck.noteWrite(failure);
    return failure;
  }

  #unavailable(error: unknown): AuditUnavailableError {
    if (error instanceof AuditUnavailableError) return error;
    return new AuditUnavailableError(this.#db.open ? 'the audit database failed' : 'the audit database is closed', error);
  }
}

function isDuplicateId(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new AuditUnavailableError(`the audit database has schema version ${version}; this keygate knows up to ${MIGRATIONS.length}`);
    }
    for (let next = version; next < MIGRATIONS.length; next += 1) {
      db.exec(MIGRATIONS[next]!);
      db.pragma(`user_version = ${next + 1}`);
    }
  }).immediate();
}
