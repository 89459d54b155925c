import Database from 'better-sqlite3';
import pg from 'pg';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditChainRange, AuditChainSlice } from '../../domain/audit/audit-entry.js';
import { chainRangeSql, checkpointFromRow, entryFromRow, type CheckpointRow, type EntryRow } from './audit-sql.js';

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
      checkpoints: (db!.prepare(sql.checkpoints.sql).all(...sql.checkpoints.params) as CheckpointRow[]).map((row) => checkpointFromRow(row, Number(row.at))),
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
