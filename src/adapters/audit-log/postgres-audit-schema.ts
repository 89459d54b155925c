import type pg from 'pg';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { foldedRecordView } from './audit-sql.js';

/**
 * The schema, one entry per version, over the quoted schema name; the table
 * `keygate_audit_schema_version` holds how many have run. A migration is appended, never edited.
 * `id` sorts with the "C" collation so that every store orders ids bytewise.
 */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.audit_record (
      id text COLLATE "C" PRIMARY KEY,
      at timestamptz NOT NULL,
      request_id text NOT NULL,
      principal text,
      session_ref text,
      operation text NOT NULL,
      object text,
      outcome text NOT NULL CHECK (outcome IN ('pending', 'ok', 'denied', 'error')),
      status integer NOT NULL,
      code text
    );
    CREATE INDEX audit_record_newest ON ${s}.audit_record (at DESC, id DESC);
    CREATE INDEX audit_record_principal ON ${s}.audit_record (principal, at DESC, id DESC);`,
  // 2: append-only entries in per-writer MAC chains, signed checkpoints; records become a view. Rows
  // of version 1 are kept as unchained entries (a verifier reports them: they predate the chain).
  (s) => `
    ALTER TABLE ${s}.audit_record RENAME TO audit_entry;
    ALTER TABLE ${s}.audit_entry DROP CONSTRAINT audit_record_pkey;
    ALTER TABLE ${s}.audit_entry
      ADD COLUMN entry text NOT NULL DEFAULT 'record' CHECK (entry IN ('pending', 'outcome', 'record')),
      ADD COLUMN client_address text,
      ADD COLUMN acting_for text,
      ADD COLUMN writer text COLLATE "C",
      ADD COLUMN seq bigint,
      ADD COLUMN prev text,
      ADD COLUMN mac text;
    UPDATE ${s}.audit_entry SET entry = 'pending' WHERE outcome = 'pending';
    ALTER TABLE ${s}.audit_entry ALTER COLUMN entry DROP DEFAULT;
    CREATE UNIQUE INDEX audit_entry_record ON ${s}.audit_entry (id) WHERE entry <> 'outcome';
    CREATE UNIQUE INDEX audit_entry_outcome ON ${s}.audit_entry (id) WHERE entry = 'outcome';
    CREATE UNIQUE INDEX audit_entry_chain ON ${s}.audit_entry (writer, seq);
    CREATE TABLE ${s}.audit_checkpoint (
      writer text COLLATE "C" NOT NULL,
      seq bigint NOT NULL,
      mac text NOT NULL,
      at timestamptz NOT NULL,
      key_id text NOT NULL,
      signature text NOT NULL,
      PRIMARY KEY (writer, seq)
    );
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withDetail: false })};`,
  // 3: the public hash chain under the MAC, and checkpoints that sign its head. Existing entries get
  // their hash at open (`PostgresEntryWriter.backfillHashes`), only where their MAC verifies under the writer's key.
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN hash text;
    ALTER TABLE ${s}.audit_checkpoint ADD COLUMN hash text;`,
  // 4: the key version an operation acted on, and a batch's item and failure counts (docs/spec.md §9.1).
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN version integer, ADD COLUMN items integer, ADD COLUMN failures integer;
    DROP VIEW ${s}.audit_record;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withBatch: false })};`,
  // 5: every distinct key and version a batch named, and how many more there were (docs/spec.md §9.1).
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN keys text, ADD COLUMN keys_omitted integer;
    DROP VIEW ${s}.audit_record;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withAlias: false })};`,
  // 6: the alias a request named its key by (docs/spec.md §4.23 item 3, §9.1).
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN alias text;
    DROP VIEW ${s}.audit_record;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withSigning: false })};`,
  // 7: a signing key's type, the algorithm and the version's key id an operation used (docs/spec.md §4.25 item 8, §9.1).
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN key_type text, ADD COLUMN alg text, ADD COLUMN kid text;
    DROP VIEW ${s}.audit_record;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`, { withContext: false })};`,
  // 8: the encryption context a request named, a batch's distinct ones and how many more (docs/spec.md §4.5b item 5, §9.1).
  (s) => `
    ALTER TABLE ${s}.audit_entry ADD COLUMN context text, ADD COLUMN contexts text, ADD COLUMN contexts_omitted integer;
    DROP VIEW ${s}.audit_record;
    ${foldedRecordView(`${s}.audit_entry`, `${s}.audit_record`)};`,
];

export const POSTGRES_AUDIT_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema to the current version in one transaction. Gateways booting together take turns
 * on an advisory lock, so each migration runs once; a database newer than this code is refused.
 */
export async function migratePostgresAudit(pool: pg.Pool, schema: string): Promise<void> {
  const s = `"${schema}"`;
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`keygate.audit.${schema}`]);
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.keygate_audit_schema_version (version integer NOT NULL)`);
    const found = await client.query<{ version: number }>(`SELECT version FROM ${s}.keygate_audit_schema_version`);
    let version = found.rows[0]?.version ?? 0;
    if (found.rowCount === 0) await client.query(`INSERT INTO ${s}.keygate_audit_schema_version (version) VALUES (0)`);
    if (version > MIGRATIONS.length) {
      throw new AuditUnavailableError(`the audit database has schema version ${version}; this keygate knows up to ${MIGRATIONS.length}`);
    }
    for (; version < MIGRATIONS.length; version += 1) {
      await client.query(MIGRATIONS[version]!(s));
      await client.query(`UPDATE ${s}.keygate_audit_schema_version SET version = $1`, [version + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-migration is dropped, not handed back to the pool.
    client.release(failed);
  }
}
