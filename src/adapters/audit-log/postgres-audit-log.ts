import pg from 'pg';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { pageOf, resolveAuditQuery, type AuditPage, type AuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import { AUDIT_COLUMNS, completionAssignments, queryConditions, recordFromRow, rowValues, type AuditRow } from './audit-sql.js';
import { migratePostgresAudit } from './postgres-audit-schema.js';

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
   * (ms; issue 15 §2). Also the default of the two bounds above. Absent: only those two apply.
   */
  readonly timeoutMs?: number;
  readonly poolSize?: number;
  /** Told about a failure of an idle pooled connection (the server restarted, the network dropped). */
  readonly onConnectionError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The audit log in PostgreSQL, shared by every gateway of a scale-out deployment (architecture.md
 * "Deployments"). A pool with connection and statement timeouts on both sides, so no call hangs: a
 * server that is down or silent becomes AuditUnavailableError within the bounds.
 */
export class PostgresAuditLog implements AuditLog {
  readonly #pool: pg.Pool;
  readonly #table: string;
  readonly #timeoutMs: number | undefined;
  #closed = false;

  private constructor(pool: pg.Pool, schema: string, timeoutMs: number | undefined) {
    this.#pool = pool;
    this.#table = `"${schema}".audit_record`;
    this.#timeoutMs = timeoutMs;
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
    return new PostgresAuditLog(pool, schema, options.timeoutMs);
  }

  async append(record: AuditRecord): Promise<void> {
    const values = rowValues(record, (ms) => new Date(ms));
    const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
    await this.#run(`INSERT INTO ${this.#table} (${AUDIT_COLUMNS}) VALUES (${placeholders})`, values, record.id);
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    const params: unknown[] = [];
    const set = completionAssignments(completion, (v) => `$${params.push(v)}`);
    const result = await this.#run(`UPDATE ${this.#table} SET ${set} WHERE id = $${params.push(id)} AND outcome = 'pending'`, params);
    return result.rowCount === 1;
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    const result = await this.#run<AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM ${this.#table} WHERE id = $1`, [id]);
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
    const sql = `SELECT ${AUDIT_COLUMNS} FROM ${this.#table} WHERE ${where} ORDER BY at DESC, id DESC LIMIT $${params.push(resolved.limit + 1)}`;
    // One statement whose rows arrive whole, or an error: never a partial page.
    const result = await this.#run<AuditRow>(sql, params);
    return pageOf(
      result.rows.map((row) => recordFromRow(row, (row.at as Date).getTime())),
      resolved.limit,
    );
  }

  async ping(): Promise<void> {
    await this.#run('SELECT 1', []);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  async #run<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[], appendedId?: string): Promise<pg.QueryResult<R>> {
    if (this.#closed) throw new AuditUnavailableError('the audit log is closed');
    try {
      return await withinBound(this.#pool.query<R>(sql, params), this.#timeoutMs);
    } catch (error) {
      // 23505 unique_violation: the only failure that is the caller's, not the store's.
      if (appendedId !== undefined && (error as { code?: string }).code === '23505') throw new AuditRecordExistsError(appendedId);
      throw new AuditUnavailableError('the audit database failed', error);
    }
  }
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
