import pg from 'pg';
import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import type { AuditChain } from '../../domain/audit/audit-chain.js';
import { type AuditChainPages, type AuditChainRange, type AuditChainSlice, entryOf, outcomeEntry } from '../../domain/audit/audit-entry.js';
import { type AuditPage, type AuditQuery, pageOf, resolveAuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import { requestBudget, withinBudget } from '../request-budget/request-budget.js';
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
import { migratePostgresAudit } from './postgres-audit-schema.js';
import { PostgresEntryWriter } from './postgres-entry-writer.js';

export interface PostgresAuditLogOptions {
  /** `postgres://user:password@host:port/database`; never logged or put in an error. */
  readonly url: string;
  /** Schema holding the tables (created when missing); `public` by default. */
  readonly schema?: string;
  /** Bound on opening a connection, or waiting for a free one in the pool (ms). */
  readonly connectTimeoutMs?: number;
  /** Bound on one statement, server side (`statement_timeout`) and client side (ms). */
  readonly statementTimeoutMs?: number;
  /**
   * Bound on one call as a whole: opening or waiting for a connection, and the statement, together
   * (ms). Also the default of the two bounds above. Absent: only those two apply.
   */
  readonly timeoutMs?: number;
  readonly poolSize?: number;
  /** Told about a failure of an idle pooled connection (the server restarted, the network dropped). */
  readonly onConnectionError?: (error: Error) => void;
  /** This gateway's chain (its writer id distinct from every other gateway's); without one, unchained. */
  readonly chain?: AuditChain;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The audit log in PostgreSQL, shared by every gateway of a scale-out deployment (architecture.md
 * "Deployments"). A pool with connection and statement timeouts on both sides, so no call hangs: a
 * server that is down or silent becomes AuditUnavailableError within the bounds.
 */
export class PostgresAuditLog implements AuditLog {
  readonly #pool: pg.Pool;
  readonly #entries: string;
  readonly #records: string;
  readonly #checkpoints: string;
  readonly #writer: PostgresEntryWriter;
  readonly #stopTimer: () => void;
  readonly #timeoutMs: number | undefined;
  #closed = false;

  private constructor(pool: pg.Pool, schema: string, chain: AuditChain | undefined, timeoutMs: number | undefined) {
    this.#pool = pool;
    this.#timeoutMs = timeoutMs;
    this.#entries = `"${schema}".audit_entry`;
    this.#records = `"${schema}".audit_record`;
    this.#checkpoints = `"${schema}".audit_checkpoint`;
    this.#writer = new PostgresEntryWriter(
      (sql, params) => this.#run(sql, params),
      { entries: this.#entries, checkpoints: this.#checkpoints },
      chain,
    );
    this.#stopTimer = chain === undefined ? () => undefined : startCheckpointTimer(chain, () => this.#writer.checkpoint());
  }

  /** Connects and migrates the schema (in one transaction). Throws AuditUnavailableError when it cannot. */
  static async open(options: PostgresAuditLogOptions): Promise<PostgresAuditLog> {
    const schema = options.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema)) throw new AuditUnavailableError(`audit schema name "${schema}" is not a plain identifier`);
    const statementTimeout = options.statementTimeoutMs ?? options.timeoutMs ?? 5_000;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? options.timeoutMs ?? 5_000,
      statement_timeout: statementTimeout,
      lock_timeout: statementTimeout,
      query_timeout: statementTimeout + 1_000,
      idle_in_transaction_session_timeout: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: 'keygate-audit',
      keepAlive: true,
    });
    pool.on('error', (error) => options.onConnectionError?.(error));
    try {
      await migratePostgresAudit(pool, schema);
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof AuditUnavailableError) throw error;
      throw new AuditUnavailableError('cannot open the audit database', error);
    }
    const log = new PostgresAuditLog(pool, schema, options.chain, options.timeoutMs);
    try {
      // The head is read now, not at the first write: a chain shorter than its witness stops the boot.
      await log.#writer.backfillHashes();
      await log.#writer.resume();
    } catch (error) {
      log.#stopTimer();
      await pool.end().catch(() => undefined);
      throw unavailable(error);
    }
    return log;
  }

  append(record: AuditRecord): Promise<void> {
    return this.#bounded(async () => {
      if (this.#closed) throw new AuditUnavailableError('the audit log is closed');
      await this.#writer.write(entryOf(record)).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new AuditRecordExistsError(record.id) : unavailable(error);
      });
    });
  }

  complete(id: string, completion: AuditCompletion): Promise<boolean> {
    return this.#bounded(() => this.#complete(id, completion));
  }

  async #complete(id: string, completion: AuditCompletion): Promise<boolean> {
    // Each branch names its partial index's own condition, so both are index searches.
    const columns = `${AUDIT_COLUMNS}, entry`;
    const sql = `SELECT ${columns} FROM ${this.#entries} WHERE id = $1 AND entry <> 'outcome' UNION ALL SELECT ${columns} FROM ${this.#entries} WHERE id = $1 AND entry = 'outcome'`;
    const found = await this.#run<AuditRow & { entry: string }>(sql, [id]);
    const pending = found.rows.find((row) => row.entry === 'pending');
    if (pending === undefined || found.rows.some((row) => row.entry === 'outcome')) return false;
    try {
      await this.#writer.write(outcomeEntry(recordFromRow(pending, (pending.at as Date).getTime()), completion));
      return true;
    } catch (error) {
      // Another outcome entry for this id was stored first: this completion is not the first.
      if (isUniqueViolation(error)) return false;
      throw unavailable(error);
    }
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    const result = await this.#bounded(() => this.#run<AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM ${this.#records} WHERE id = $1`, [id]));
    const row = result.rows[0];
    return row === undefined ? undefined : recordFromRow(row, (row.at as Date).getTime());
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    const resolved = resolveAuditQuery(query);
    const params: unknown[] = [];
    const where = queryConditions(
      resolved,
      (v) => `$${params.push(v)}`,
      (ms) => new Date(ms),
    );
    const sql = `SELECT ${AUDIT_COLUMNS} FROM ${this.#records} WHERE ${where} ORDER BY at DESC, id DESC LIMIT $${params.push(resolved.limit + 1)}`;
    // One statement whose rows arrive whole, or an error: never a partial page.
    const result = await this.#bounded(() => this.#run<AuditRow>(sql, params));
    return pageOf(
      result.rows.map((row) => recordFromRow(row, (row.at as Date).getTime())),
      resolved.limit,
    );
  }

  readChain(range: AuditChainRange = {}): Promise<AuditChainSlice> {
    return this.#bounded(() => this.#readChain(range));
  }

  async #readChain(range: AuditChainRange): Promise<AuditChainSlice> {
    const sql = chainRangeSql(
      { entries: this.#entries, checkpoints: this.#checkpoints },
      range,
      (params, v) => `$${params.push(v)}`,
      (ms) => new Date(ms),
    );
    // Checkpoints first: an entry appended between the two reads is then only more chain, never a
    // checkpoint without its entries (which would read as truncation).
    const checkpoints = await this.#run<CheckpointRow>(sql.checkpoints.sql, sql.checkpoints.params);
    const entries = await this.#run<EntryRow>(sql.entries.sql, sql.entries.params);
    return {
      entries: entries.rows.map((row) => entryFromRow(row, (row.at as Date).getTime())),
      checkpoints: checkpoints.rows.map((row) => checkpointFromRow(row, (row.at as Date).getTime())),
      partial: range.from !== undefined,
    };
  }

  /** Each page is one statement on a pooled connection, under the same bounds as every other call. */
  async readChainPages(range: AuditChainRange = {}, pageSize?: number): Promise<AuditChainPages> {
    return readSqlChainPages(
      {
        tables: { entries: this.#entries, checkpoints: this.#checkpoints },
        placeholder: (params, v) => `$${params.push(v)}`,
        toAt: (ms) => new Date(ms),
        fromAt: (at) => (at as Date).getTime(),
        rows: async <R>(sql: string, params: unknown[]) => (await this.#run<R & pg.QueryResultRow>(sql, params)).rows as R[],
      },
      range,
      pageSize,
    );
  }

  async ping(): Promise<void> {
    await this.#run('SELECT 1', []);
  }

  /** Signs a last checkpoint of the head (best effort), then ends the pool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#stopTimer();
    await this.#writer.checkpoint();
    this.#closed = true;
    await this.#pool.end();
  }

  /**
   * The request's whole wait at the audit database within `timeoutMs` (TE_GATEWAY_AUDIT_TIMEOUT_MS):
   * a request's calls (its pending record, its outcome, a read) share one budget (`requestBudget`).
   */
  #bounded<T>(work: () => Promise<T>): Promise<T> {
    const timeoutMs = this.#timeoutMs;
    if (timeoutMs === undefined) return work();
    const expired = () => new AuditUnavailableError(`the audit database did not answer within the request's ${timeoutMs} ms`);
    return withinBudget(requestBudget('audit', timeoutMs), work, expired);
  }

  async #run<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.#closed) throw new AuditUnavailableError('the audit log is closed');
    try {
      return await withinBound(this.#pool.query<R>(sql, params), this.#timeoutMs);
    } catch (error) {
      // 23505 unique_violation is the caller's (a duplicate id), not the store's: its cause says so.
      throw new AuditUnavailableError('the audit database failed', error);
    }
  }
}

/** A duplicate id (23505, as thrown by `#run` or pg itself); not a (writer, seq) collision, which is the store's failure. */
function isUniqueViolation(error: unknown): boolean {
  const failure = (error as { cause?: { code?: string; constraint?: string } }).cause ?? (error as { code?: string; constraint?: string });
  return failure.code === '23505' && failure.constraint !== 'audit_entry_chain';
}

function unavailable(error: unknown): AuditUnavailableError {
  return error instanceof AuditUnavailableError ? error : new AuditUnavailableError('the audit database failed', error);
}

/**
 * The call's answer, or a rejection once `timeoutMs` has passed (a pool wait and a statement together).
 * A statement still running server-side is ended there by `statement_timeout`; its late result is dropped.
 */
function withinBound<T>(query: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return query;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  query.catch(() => undefined);
  return Promise.race([query, expired]).finally(() => clearTimeout(timer));
}
