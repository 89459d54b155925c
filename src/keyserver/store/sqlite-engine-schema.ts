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
  // Version 3: the directory. Memberships and tokens name principals by id; deleting a principal
  // takes its memberships (as member and as group), its tokens and its enrolled certificates with it.
  // Keys and their ACL entries stay: a key outlives its owner, shown as a missing principal.
  `
  CREATE TABLE memberships (
    group_id  TEXT NOT NULL,
    member_id TEXT NOT NULL,
    PRIMARY KEY (group_id, member_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX memberships_by_member ON memberships (member_id, group_id);
  CREATE TABLE roles (
    name       TEXT PRIMARY KEY,
    operations TEXT NOT NULL
  ) STRICT;
  CREATE INDEX tokens_by_principal ON tokens (principal_id);
  CREATE INDEX principals_by_kind ON principals (kind, name);
  CREATE TRIGGER principal_deleted AFTER DELETE ON principals BEGIN
    DELETE FROM memberships WHERE group_id = OLD.principal_id OR member_id = OLD.principal_id;
    DELETE FROM tokens WHERE principal_id = OLD.principal_id;
    DELETE FROM certificates WHERE role = 'enrolled' AND principal_id = OLD.principal_id;
  END;
  `,
  // Version 4: a service's delegation list (JSON array of names) and, on a principal provisioned from a
  // certificate, the issuing authority's certificate id.
  `
  ALTER TABLE principals ADD COLUMN delegates TEXT;
  ALTER TABLE principals ADD COLUMN provisioned_by TEXT;
  CREATE INDEX tokens_by_acting_for ON tokens (acting_for) WHERE acting_for IS NOT NULL;
  `,
  // Version 5: secrets at rest. Key material, SRP verifiers and settings are sealed under a master key
  // (AES-256-GCM); the column beside each names the key. NULL: a plaintext value an earlier version
  // wrote, sealed by the store when it opens the file.
  `
  ALTER TABLE principals ADD COLUMN verifier_key_id TEXT;
  ALTER TABLE keys ADD COLUMN material_key_id TEXT;
  ALTER TABLE settings ADD COLUMN value_key_id TEXT;
  `,
  // Version 6: each key's ACL revision (docs/spec.md §4.1 item 3), one more for every grant or revoke applied. A key
  // an earlier version stored starts at 0 with its ACL as it was.
  `
  ALTER TABLE keys ADD COLUMN acl_revision INTEGER NOT NULL DEFAULT 0;
  `,
  // Version 7: key versions. A key's own material is its version 1, so a key an earlier version stored
  // is version 1 with the same material; a rotation adds a row here (version 2, 3, ...), its material
  // sealed as the key's is, bound to its id '<ttag> <version>'. Versions below min_version are retired.
  `
  ALTER TABLE keys ADD COLUMN min_version INTEGER NOT NULL DEFAULT 1;
  CREATE TABLE key_versions (
    id              TEXT PRIMARY KEY,
    ttag            TEXT NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    version         INTEGER NOT NULL CHECK (version >= 2),
    material        BLOB NOT NULL,
    material_key_id TEXT,
    created_at      INTEGER NOT NULL,
    UNIQUE (ttag, version)
  ) STRICT;
  `,
  // Version 8: idempotency records (the Idempotency-Key of a create or rotation), per caller and key: the
  // fingerprint of the first request and its answer (JSON, no secret in it), written in the unit that
  // made what it answers; and each key's scheduled rotation period (an ISO 8601 duration, or NULL).
  `
  CREATE TABLE idempotency (
    principal_id TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    operation    TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    answer       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (principal_id, idem_key)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX idempotency_by_age ON idempotency (created_at);
  ALTER TABLE keys ADD COLUMN rotation_period TEXT;
  CREATE INDEX keys_with_rotation ON keys (ttag) WHERE rotation_period IS NOT NULL;
  `,
  // Version 9: a key's state (docs/spec.md §4.6): 1 when its owner disabled it. A key an earlier version
  // stored is active (0).
  `
  ALTER TABLE keys ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
  `,
  // Version 10: the key inventory (docs/spec.md §4.23). Scheduled deletion: `deletion_at` (ms) while a
  // key waits for its destruction; `deleted_at` once the sweep destroyed its material (the row stays, a
  // tombstone, so its ttag never names another key); `deletion_record`, on a tombstone whose audit record
  // is not stored yet, the time until which a gateway's claim to write it holds (0: unclaimed), NULL once
  // it is. Last use (`last_used_at` ms, `last_used_op`), written at most once a minute per key. Tags and
  // aliases in tables of their own; indexes for the key list's order and filters, and for the keys a
  // principal reaches through an ACL entry.
  `
  ALTER TABLE keys ADD COLUMN deletion_at INTEGER;
  ALTER TABLE keys ADD COLUMN deleted_at INTEGER;
  ALTER TABLE keys ADD COLUMN deletion_record INTEGER;
  ALTER TABLE keys ADD COLUMN last_used_at INTEGER;
  ALTER TABLE keys ADD COLUMN last_used_op TEXT;
  CREATE INDEX keys_by_created ON keys (created_at, ttag);
  CREATE INDEX keys_by_owner ON keys (owner, created_at, ttag);
  CREATE INDEX keys_by_label ON keys (label, ttag) WHERE label IS NOT NULL;
  CREATE INDEX keys_pending_deletion ON keys (deletion_at) WHERE deletion_at IS NOT NULL AND deleted_at IS NULL;
  CREATE INDEX keys_deletion_unrecorded ON keys (ttag) WHERE deletion_record IS NOT NULL;
  CREATE INDEX key_acl_by_principal ON key_acl (principal_id, ttag);
  CREATE TABLE key_tags (
    ttag  TEXT NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    name  TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (ttag, name)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX key_tags_by_value ON key_tags (name, value, ttag);
  CREATE TABLE aliases (
    name       TEXT PRIMARY KEY,
    ttag       TEXT NOT NULL REFERENCES keys (ttag),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX aliases_by_ttag ON aliases (ttag, name);
  `,
  // Version 11: signing keys (docs/spec.md §4.25). `key_type` 'aes' for every key stored before; a
  // signing key's `key_alg`, whether its private key may be exported, whether its JWKS is published,
  // and the longest lifetime of a JWT it signs (seconds). Its material is each version's PKCS#8.
  `
  ALTER TABLE keys ADD COLUMN key_type TEXT NOT NULL DEFAULT 'aes';
  ALTER TABLE keys ADD COLUMN key_alg TEXT;
  ALTER TABLE keys ADD COLUMN exportable INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE keys ADD COLUMN published INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE keys ADD COLUMN jwt_max_lifetime INTEGER;
  `,
  // Version 12: grant conditions (docs/spec.md §4.5b item 4): an entry's `{ context }` as JSON, NULL for
  // an unconditioned entry, as every entry stored before is.
  `
  ALTER TABLE key_acl ADD COLUMN conditions TEXT;
  `,
];

export const ENGINE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings an open database to the current schema version (or to `target`, an older one: how a test
 * makes a file as an earlier keygate left it).
 */
export function migrateEngineSchema(db: Database, target = ENGINE_SCHEMA_VERSION): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > ENGINE_SCHEMA_VERSION) {
    throw new Error(`the key-server data file is at schema version ${version}; this keygate knows up to ${ENGINE_SCHEMA_VERSION}`);
  }
  if (version >= target) return;
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(version, target)) db.exec(step);
    db.pragma(`user_version = ${target}`);
  })();
}
