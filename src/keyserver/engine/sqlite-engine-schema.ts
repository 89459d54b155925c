import type { Database } from 'better-sqlite3';

/**
 * The engine's SQLite schema, one entry per version. `PRAGMA user_version` records the version a file
 * is at; opening a file runs the missing steps in one transaction, and refuses a file written by a
 * newer keygate rather than guess at its meaning.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE principals (
    name         TEXT PRIMARY KEY,
    principal_id TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL CHECK (kind IN ('user', 'group', 'service')),
    system_id    INTEGER NOT NULL UNIQUE,
    display_name TEXT,
    disabled     INTEGER NOT NULL DEFAULT 0,
    roles        TEXT NOT NULL,
    srp_salt     BLOB,
    srp_verifier BLOB,
    created_at   INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE keys (
    ttag       TEXT PRIMARY KEY,
    nid        INTEGER NOT NULL,
    material   BLOB NOT NULL,
    owner      TEXT NOT NULL,
    label      TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    expired    INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE TABLE key_acl (
    ttag         TEXT NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    principal_id TEXT NOT NULL,
    rights       TEXT NOT NULL,
    position     INTEGER NOT NULL,
    PRIMARY KEY (ttag, principal_id)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE tokens (
    token_hash   TEXT PRIMARY KEY,
    principal_id TEXT NOT NULL,
    issued_at    INTEGER NOT NULL,
    expires_at   INTEGER
  ) STRICT;
  CREATE INDEX tokens_by_expiry ON tokens (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
  INSERT INTO counters (name, value) VALUES ('systemId', 1000);
  `,
  `
  ALTER TABLE principals ADD COLUMN sender_key TEXT;
  ALTER TABLE tokens ADD COLUMN scope TEXT;
  ALTER TABLE tokens ADD COLUMN acting_for TEXT;
  CREATE TABLE certificates (
    id           TEXT PRIMARY KEY,
    pem          TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('authority', 'enrolled')),
    principal_id TEXT,
    created_at   INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX certificates_by_role ON certificates (role);
  `,
];

export const ENGINE_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings an open database to the current schema version. */
export function migrateEngineSchema(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > ENGINE_SCHEMA_VERSION) {
    throw new Error(`the key-server data file is at schema version ${version}; this keygate knows up to ${ENGINE_SCHEMA_VERSION}`);
  }
  if (version === ENGINE_SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(version)) db.exec(step);
    db.pragma(`user_version = ${ENGINE_SCHEMA_VERSION}`);
  })();
}
