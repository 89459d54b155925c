import type Database from 'better-sqlite3';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { foldedRecordView } from './audit-sql.js';

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
  // 2: append-only entries in per-writer MAC chains, signed checkpoints; records become a view. Rows
  // of version 1 are kept as unchained entries (a verifier reports them: they predate the chain).
  `CREATE TABLE audit_entry (
     id TEXT NOT NULL,
     entry TEXT NOT NULL CHECK (entry IN ('pending', 'outcome', 'record')),
     at INTEGER NOT NULL,
     request_id TEXT NOT NULL,
     principal TEXT,
     session_ref TEXT,
     operation TEXT NOT NULL,
     object TEXT,
     outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'ok', 'denied', 'error')),
     status INTEGER NOT NULL,
     code TEXT,
     client_address TEXT,
     acting_for TEXT,
     writer TEXT,
     seq INTEGER,
     prev TEXT,
     mac TEXT
   ) STRICT;
   INSERT INTO audit_entry (id, entry, at, request_id, principal, session_ref, operation, object, outcome, status, code)
     SELECT id, CASE outcome WHEN 'pending' THEN 'pending' ELSE 'record' END, at, request_id, principal, session_ref, operation, object, outcome, status, code
     FROM audit_record;
   DROP TABLE audit_record;
   CREATE UNIQUE INDEX audit_entry_record ON audit_entry (id) WHERE entry <> 'outcome';
   CREATE UNIQUE INDEX audit_entry_outcome ON audit_entry (id) WHERE entry = 'outcome';
   CREATE UNIQUE INDEX audit_entry_chain ON audit_entry (writer, seq);
   CREATE INDEX audit_entry_newest ON audit_entry (at DESC, id DESC);
   CREATE TABLE audit_checkpoint (
     writer TEXT NOT NULL,
     seq INTEGER NOT NULL,
     mac TEXT NOT NULL,
     at INTEGER NOT NULL,
     key_id TEXT NOT NULL,
     signature TEXT NOT NULL,
     PRIMARY KEY (writer, seq)
   ) STRICT;
   ${foldedRecordView('audit_entry', 'audit_record', { withDetail: false })};`,
  // 3: the public hash chain under the MAC, and checkpoints that sign its head. Existing entries get
  // their hash at open (`SqliteChainWriter.backfillHashes`), only where their MAC verifies under the writer's key.
  `ALTER TABLE audit_entry ADD COLUMN hash TEXT;
   ALTER TABLE audit_checkpoint ADD COLUMN hash TEXT;`,
  // 4: the key version an operation acted on, and a batch's item and failure counts (docs/spec.md §9.1).
  `ALTER TABLE audit_entry ADD COLUMN version INTEGER;
   ALTER TABLE audit_entry ADD COLUMN items INTEGER;
   ALTER TABLE audit_entry ADD COLUMN failures INTEGER;
   DROP VIEW audit_record;
   ${foldedRecordView('audit_entry', 'audit_record', { withBatch: false })};`,
  // 5: every distinct key and version a batch named, and how many more there were (docs/spec.md §9.1).
  `ALTER TABLE audit_entry ADD COLUMN keys TEXT;
   ALTER TABLE audit_entry ADD COLUMN keys_omitted INTEGER;
   DROP VIEW audit_record;
   ${foldedRecordView('audit_entry', 'audit_record', { withAlias: false })};`,
  // 6: the alias a request named its key by (docs/spec.md §4.23 item 3, §9.1).
  `ALTER TABLE audit_entry ADD COLUMN alias TEXT;
   DROP VIEW audit_record;
   ${foldedRecordView('audit_entry', 'audit_record', { withSigning: false })};`,
  // 7: a signing key's type, the algorithm and the version's key id an operation used (docs/spec.md §4.25 item 8, §9.1).
  `ALTER TABLE audit_entry ADD COLUMN key_type TEXT;
   ALTER TABLE audit_entry ADD COLUMN alg TEXT;
   ALTER TABLE audit_entry ADD COLUMN kid TEXT;
   DROP VIEW audit_record;
   ${foldedRecordView('audit_entry', 'audit_record', { withContext: false })};`,
  // 8: the encryption context a request named, a batch's distinct ones and how many more (docs/spec.md §4.5b item 5, §9.1).
  `ALTER TABLE audit_entry ADD COLUMN context TEXT;
   ALTER TABLE audit_entry ADD COLUMN contexts TEXT;
   ALTER TABLE audit_entry ADD COLUMN contexts_omitted INTEGER;
   DROP VIEW audit_record;
   ${foldedRecordView('audit_entry', 'audit_record')};`,
];

export const SQLITE_AUDIT_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the file to the current version in one immediate transaction; a newer file is refused. */
export function migrateSqliteAudit(db: Database.Database): void {
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
