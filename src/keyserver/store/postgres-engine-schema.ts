import type pg from 'pg';
import { ConfigError } from '../config-error.js';

/**
 * The engine's PostgreSQL schema, one entry per version; the table `keygate_engine_schema_version`
 * holds how many have run. A migration is appended, never edited. Tables and columns are those of the
 * SQLite store (store-tables.ts): the same names, integers where SQLite keeps integers (`bigint` for
 * times and counters), `bytea` for blobs, text for JSON and for base64 sealed settings, so a row moves
 * between the two as it is. Names sort with the "C" collation, as SQLite orders text (code units).
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE principals (
    name            text COLLATE "C" PRIMARY KEY,
    principal_id    text NOT NULL UNIQUE,
    kind            text NOT NULL CHECK (kind IN ('user', 'group', 'service')),
    system_id       integer NOT NULL UNIQUE,
    display_name    text,
    disabled        integer NOT NULL DEFAULT 0,
    roles           text NOT NULL,
    srp_salt        bytea,
    srp_verifier    bytea,
    verifier_key_id text,
    sender_key      text,
    delegates       text,
    provisioned_by  text,
    created_at      bigint NOT NULL
  );
  CREATE INDEX principals_by_kind ON principals (kind, name);
  CREATE TABLE memberships (
    group_id  text NOT NULL,
    member_id text NOT NULL,
    PRIMARY KEY (group_id, member_id)
  );
  CREATE INDEX memberships_by_member ON memberships (member_id, group_id);
  CREATE TABLE roles (
    name       text COLLATE "C" PRIMARY KEY,
    operations text NOT NULL
  );
  CREATE TABLE keys (
    ttag            text PRIMARY KEY,
    nid             integer NOT NULL,
    material        bytea NOT NULL,
    material_key_id text,
    owner           text NOT NULL,
    label           text,
    created_at      bigint NOT NULL,
    expires_at      bigint,
    expired         integer NOT NULL DEFAULT 0,
    acl_revision    integer NOT NULL DEFAULT 0
  );
  CREATE TABLE key_acl (
    ttag         text NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    principal_id text NOT NULL,
    rights       text NOT NULL,
    position     integer NOT NULL,
    PRIMARY KEY (ttag, principal_id)
  );
  CREATE TABLE tokens (
    token_hash   text PRIMARY KEY,
    principal_id text NOT NULL,
    issued_at    bigint NOT NULL,
    expires_at   bigint,
    scope        text,
    acting_for   text
  );
  CREATE INDEX tokens_by_expiry ON tokens (expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX tokens_by_principal ON tokens (principal_id);
  CREATE INDEX tokens_by_acting_for ON tokens (acting_for) WHERE acting_for IS NOT NULL;
  CREATE TABLE certificates (
    id           text PRIMARY KEY,
    pem          text NOT NULL,
    role         text NOT NULL CHECK (role IN ('authority', 'enrolled')),
    principal_id text,
    created_at   bigint NOT NULL
  );
  CREATE INDEX certificates_by_role ON certificates (role);
  CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL, value_key_id text);
  CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL);
  INSERT INTO counters (name, value) VALUES ('systemId', 1000);
  -- Deleting a principal takes its memberships (as member and as group), its tokens and its enrolled
  -- certificates with it, as the SQLite schema's trigger does. Keys and their ACL entries stay.
  CREATE FUNCTION principal_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM memberships WHERE group_id = OLD.principal_id OR member_id = OLD.principal_id;
    DELETE FROM tokens WHERE principal_id = OLD.principal_id;
    DELETE FROM certificates WHERE role = 'enrolled' AND principal_id = OLD.principal_id;
    RETURN OLD;
  END $$;
  CREATE TRIGGER principal_deleted AFTER DELETE ON principals FOR EACH ROW EXECUTE FUNCTION principal_deleted();
  `,
  // Version 2: key versions, as in the SQLite schema's version 7. A key's own material is its version
  // 1 (a key stored before is version 1 with the same material); a rotation adds a row here, its
  // material sealed to its id '<ttag> <version>'. Versions below min_version are retired.
  `
  ALTER TABLE keys ADD COLUMN min_version integer NOT NULL DEFAULT 1;
  CREATE TABLE key_versions (
    id              text PRIMARY KEY,
    ttag            text NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    version         integer NOT NULL CHECK (version >= 2),
    material        bytea NOT NULL,
    material_key_id text,
    created_at      bigint NOT NULL,
    UNIQUE (ttag, version)
  );
  `,
  // Version 3: idempotency records and each key's rotation period, as the SQLite store's version 8.
  `
  CREATE TABLE idempotency (
    principal_id text NOT NULL,
    idem_key     text NOT NULL,
    operation    text NOT NULL,
    fingerprint  text NOT NULL,
    answer       text NOT NULL,
    created_at   bigint NOT NULL,
    PRIMARY KEY (principal_id, idem_key)
  );
  CREATE INDEX idempotency_by_age ON idempotency (created_at);
  ALTER TABLE keys ADD COLUMN rotation_period text;
  CREATE INDEX keys_with_rotation ON keys (ttag) WHERE rotation_period IS NOT NULL;
  `,
  // Version 4: master keys a rotation retired. A daemon that went on serving under a retired key (its
  // serving lock was lost and taken again after the rotation) cannot seal anything under it: every
  // write of a sealed column checks, inside the writer's own transaction, that its key was not retired,
  // and the rotation retires the old keys in the transaction that rewraps the rows.
  `
  CREATE TABLE retired_master_keys (id text PRIMARY KEY);
  CREATE FUNCTION refuse_retired_master_key() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    key_id text := to_jsonb(NEW) ->> TG_ARGV[0];
  BEGIN
    IF key_id IS NOT NULL AND EXISTS (SELECT 1 FROM retired_master_keys WHERE id = key_id) THEN
      RAISE EXCEPTION 'sealed under master key %, which a master-key rotation retired: restart this key server with the rotated key', key_id
        USING ERRCODE = 'KG001';
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER principals_sealed_under_live_key BEFORE INSERT OR UPDATE ON principals
    FOR EACH ROW EXECUTE FUNCTION refuse_retired_master_key('verifier_key_id');
  CREATE TRIGGER keys_sealed_under_live_key BEFORE INSERT OR UPDATE ON keys
    FOR EACH ROW EXECUTE FUNCTION refuse_retired_master_key('material_key_id');
  CREATE TRIGGER key_versions_sealed_under_live_key BEFORE INSERT OR UPDATE ON key_versions
    FOR EACH ROW EXECUTE FUNCTION refuse_retired_master_key('material_key_id');
  CREATE TRIGGER settings_sealed_under_live_key BEFORE INSERT OR UPDATE ON settings
    FOR EACH ROW EXECUTE FUNCTION refuse_retired_master_key('value_key_id');
  `,
  // Version 5: a key's state, as the SQLite store's version 9: 1 when its owner disabled it; a key stored
  // before is active (0).
  `
  ALTER TABLE keys ADD COLUMN disabled integer NOT NULL DEFAULT 0;
  `,
  // Version 6: the key inventory, as the SQLite store's version 10 (docs/spec.md §4.23): scheduled
  // deletion and tombstones, last use, tags, aliases, and the indexes of the key list (its ttag order
  // is by code unit, "C", whatever the database's collation).
  `
  ALTER TABLE keys ADD COLUMN deletion_at bigint;
  ALTER TABLE keys ADD COLUMN deleted_at bigint;
  ALTER TABLE keys ADD COLUMN deletion_record bigint;
  ALTER TABLE keys ADD COLUMN last_used_at bigint;
  ALTER TABLE keys ADD COLUMN last_used_op text;
  CREATE INDEX keys_by_created ON keys (created_at, ttag COLLATE "C");
  CREATE INDEX keys_by_owner ON keys (owner, created_at, ttag COLLATE "C");
  CREATE INDEX keys_by_label ON keys (label COLLATE "C", ttag) WHERE label IS NOT NULL;
  CREATE INDEX keys_pending_deletion ON keys (deletion_at) WHERE deletion_at IS NOT NULL AND deleted_at IS NULL;
  CREATE INDEX keys_deletion_unrecorded ON keys (ttag) WHERE deletion_record IS NOT NULL;
  CREATE INDEX key_acl_by_principal ON key_acl (principal_id, ttag);
  CREATE TABLE key_tags (
    ttag  text NOT NULL REFERENCES keys (ttag) ON DELETE CASCADE,
    name  text COLLATE "C" NOT NULL,
    value text COLLATE "C" NOT NULL,
    PRIMARY KEY (ttag, name)
  );
  CREATE INDEX key_tags_by_value ON key_tags (name, value, ttag);
  CREATE TABLE aliases (
    name       text COLLATE "C" PRIMARY KEY,
    ttag       text NOT NULL REFERENCES keys (ttag),
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  );
  CREATE INDEX aliases_by_ttag ON aliases (ttag, name);
  `,
  // Version 7: signing keys, as the SQLite store's version 11 (docs/spec.md §4.25).
  `
  ALTER TABLE keys ADD COLUMN key_type text NOT NULL DEFAULT 'aes';
  ALTER TABLE keys ADD COLUMN key_alg text;
  ALTER TABLE keys ADD COLUMN exportable integer NOT NULL DEFAULT 0;
  ALTER TABLE keys ADD COLUMN published integer NOT NULL DEFAULT 0;
  ALTER TABLE keys ADD COLUMN jwt_max_lifetime integer;
  `,
  // Version 8: grant conditions, as the SQLite store's version 12 (docs/spec.md §4.5b item 4).
  `
  ALTER TABLE key_acl ADD COLUMN conditions text;
  `,
];

export const POSTGRES_ENGINE_SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock key of one store (a schema of a database): `hashtext` of this, per purpose. */
export function storeLockName(schema: string, purpose: 'migrate' | 'serve'): string {
  return `keygate.keyserver.${purpose}.${schema}`;
}

/**
 * Creates the schema when missing and brings it to the current version (or to `target`, an older one:
 * how a test makes a database as an earlier keygate left it), in one transaction. Daemons starting
 * together take turns on a transaction-level advisory lock, so each step runs once; a database written
 * by a newer keygate is refused rather than guessed at.
 */
export async function migratePostgresEngine(client: pg.ClientBase, schema: string, target = MIGRATIONS.length): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [storeLockName(schema, 'migrate')]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query('CREATE TABLE IF NOT EXISTS keygate_engine_schema_version (version integer NOT NULL)');
    const found = await client.query<{ version: number }>('SELECT version FROM keygate_engine_schema_version');
    const version = found.rows[0]?.version ?? 0;
    if (version > MIGRATIONS.length) {
      throw new ConfigError(`the key-server database is at schema version ${version}; this keygate knows up to ${MIGRATIONS.length}`);
    }
    const reached = Math.max(version, target);
    for (const step of MIGRATIONS.slice(version, reached)) await client.query(step);
    if (found.rowCount === 0) await client.query('INSERT INTO keygate_engine_schema_version (version) VALUES ($1)', [reached]);
    else await client.query('UPDATE keygate_engine_schema_version SET version = $1', [reached]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
