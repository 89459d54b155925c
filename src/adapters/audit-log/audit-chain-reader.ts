import Database from 'better-sqlite3';
import pg from 'pg';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditChainPages, AuditChainRange, AuditChainSlice } from '../../domain/audit/audit-entry.js';
import { type CheckpointRow, chainRangeSql, checkpointFromRow, type EntryRow, entryFromRow } from './audit-sql.js';
import { readSqlChainPages } from './chain-pages.js';

/**
 * Reads the chains of an audit database directly, read-only, without the gateway (an auditor's
 * `keygate audit verify` and `export`): nothing is migrated, created or written.
 */
export function readSqliteChain(file: string, range: AuditChainRange = {}): AuditChainSlice {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const sql = chainRangeSql(
      { entries: 'audit_entry', checkpoints: 'audit_checkpoint' },
      range,
      (params, v) => (params.push(v), '?'),
      (ms) => ms,
    );
    const read = db.transaction(() => ({
      entries: (db!.prepare(sql.entries.sql).all(...sql.entries.params) as EntryRow[]).map((row) => entryFromRow(row, Number(row.at))),
      checkpoints: (db!.prepare(sql.checkpoints.sql).all(...sql.checkpoints.params) as CheckpointRow[]).map((row) =>
        checkpointFromRow(row, Number(row.at)),
      ),
    }));
    return { ...read(), partial: range.from !== undefined };
  } catch (error) {
    throw new AuditUnavailableError(`cannot read the audit database ${file}`, error);
  } finally {
    db?.close();
  }
}

/** The same from PostgreSQL, in one REPEATABLE READ transaction (one snapshot of both tables). */
export async function readPostgresChain(url: string, schema = 'public', range: AuditChainRange = {}): Promise<AuditChainSlice> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new AuditUnavailableError(`audit schema name "${schema}" is not a plain identifier`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'keygate-audit-verify' });
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = { entries: `"${schema}".audit_entry`, checkpoints: `"${schema}".audit_checkpoint` };
    const sql = chainRangeSql(
      tables,
      range,
      (params, v) => `$${params.push(v)}`,
      (ms) => new Date(ms),
    );
    const entries = await client.query<EntryRow>(sql.entries.sql, sql.entries.params);
    const checkpoints = await client.query<CheckpointRow>(sql.checkpoints.sql, sql.checkpoints.params);
    await client.query('COMMIT');
    return {
      entries: entries.rows.map((row) => entryFromRow(row, (row.at as Date).getTime())),
      checkpoints: checkpoints.rows.map((row) => checkpointFromRow(row, (row.at as Date).getTime())),
      partial: range.from !== undefined,
    };
  } catch (error) {
    throw new AuditUnavailableError('cannot read the audit database', error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The chains of a SQLite file read page by page (`AuditLog.readChainPages`), read-only, for as long as
 * `use` runs: one read transaction, so every page is of one snapshot.
 */
export async function withSqliteChainPages<T>(
  file: string,
  range: AuditChainRange,
  use: (chain: AuditChainPages) => Promise<T>,
): Promise<T> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new AuditUnavailableError(`cannot read the audit database ${file}`, error);
  }
  const unreadable = (error: unknown) => new AuditUnavailableError(`cannot read the audit database ${file}`, error);
  try {
    db.exec('BEGIN');
    const chain = await readSqlChainPages(
      {
        tables: { entries: 'audit_entry', checkpoints: 'audit_checkpoint' },
        placeholder: (params, v) => (params.push(v), '?'),
        toAt: (ms) => ms,
        fromAt: Number,
        async rows<R>(sql: string, params: unknown[]) {
          try {
            return db.prepare(sql).all(...params) as R[];
          } catch (error) {
            throw unreadable(error);
          }
        },
      },
      range,
    ).catch((error: unknown) => {
      throw error instanceof AuditUnavailableError ? error : unreadable(error);
    });
    return await use(chain);
  } finally {
    db.close();
  }
}

/** The same from PostgreSQL, in one REPEATABLE READ transaction (one snapshot for every page). */
export async function withPostgresChainPages<T>(
  url: string,
  schema: string,
  range: AuditChainRange,
  use: (chain: AuditChainPages) => Promise<T>,
): Promise<T> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new AuditUnavailableError(`audit schema name "${schema}" is not a plain identifier`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'keygate-audit-verify' });
  const unreadable = (error: unknown) => new AuditUnavailableError('cannot read the audit database', error);
  try {
    await client.connect().catch((error: unknown) => {
      throw unreadable(error);
    });
    const rows = async <R>(sql: string, params: unknown[]) => {
      try {
        return (await client.query(sql, params)).rows as R[];
      } catch (error) {
        throw unreadable(error);
      }
    };
    await rows('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
    const chain = await readSqlChainPages(
      {
        tables: { entries: `"${schema}".audit_entry`, checkpoints: `"${schema}".audit_checkpoint` },
        placeholder: (params, v) => `$${params.push(v)}`,
        toAt: (ms) => new Date(ms),
        fromAt: (at) => (at as Date).getTime(),
        rows,
      },
      range,
    );
    const result = await use(chain);
    await rows('COMMIT', []);
    return result;
  } finally {
    await client.end().catch(() => undefined);
  }
}
