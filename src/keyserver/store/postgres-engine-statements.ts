import { STORE_TABLES } from './store-tables.js';

/**
 * What a key's read answers beside its row, for `key` and for a page of the key list: its ACL as a JSON
 * array of [principal, rights, conditions] in order, its later versions, its tags as a JSON object.
 */
export const KEY_PARTS = `, (SELECT coalesce(json_agg(json_build_array(a.principal_id, a.rights, a.conditions) ORDER BY a.position), '[]')
    FROM key_acl a WHERE a.ttag = k.ttag) AS acl,
    (SELECT coalesce(json_agg(json_build_object('id', v.id, 'version', v.version, 'material', encode(v.material, 'base64'),
      'material_key_id', v.material_key_id, 'created_at', v.created_at) ORDER BY v.version), '[]')
    FROM key_versions v WHERE v.ttag = k.ttag) AS versions,
    (SELECT coalesce(json_object_agg(t.name, t.value), '{}') FROM key_tags t WHERE t.ttag = k.ttag) AS tags`;

/**
 * Every statement of the PostgreSQL engine store, on the tables of the store's schema (the pool's
 * `search_path`). Each is sent by name, so PostgreSQL parses and plans it once per connection.
 */
export const PG_STATEMENTS = {
  principalByName: 'SELECT * FROM principals WHERE name = $1',
  principalById: 'SELECT * FROM principals WHERE principal_id = $1',
  // An upsert that never deletes: a deletion would fire the cascade of principal_deleted.
  putPrincipal: `INSERT INTO principals
    (name, principal_id, kind, system_id, display_name, disabled, roles, srp_salt, srp_verifier, verifier_key_id, sender_key, delegates, provisioned_by, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
    ON CONFLICT (name) DO UPDATE SET principal_id = excluded.principal_id, kind = excluded.kind, system_id = excluded.system_id,
    display_name = excluded.display_name, disabled = excluded.disabled, roles = excluded.roles, srp_salt = excluded.srp_salt,
    srp_verifier = excluded.srp_verifier, verifier_key_id = excluded.verifier_key_id, sender_key = excluded.sender_key,
    delegates = excluded.delegates, provisioned_by = excluded.provisioned_by, created_at = excluded.created_at`,
  principalsAfter: `SELECT * FROM principals
    WHERE ($1::text IS NULL OR name > $1) AND ($2::text IS NULL OR kind = $2)
    ORDER BY name LIMIT $3`,
  deletePrincipal: 'DELETE FROM principals WHERE principal_id = $1',
  groupIdsOf: 'SELECT group_id FROM memberships WHERE member_id = $1 ORDER BY group_id COLLATE "C"',
  memberIdsOf: 'SELECT member_id FROM memberships WHERE group_id = $1 ORDER BY member_id COLLATE "C"',
  putMembership: 'INSERT INTO memberships (group_id, member_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
  deleteMembership: 'DELETE FROM memberships WHERE group_id = $1 AND member_id = $2',
  deleteMembershipsOf: 'DELETE FROM memberships WHERE group_id = $1 OR member_id = $1',
  roles: 'SELECT * FROM roles ORDER BY name',
  putRole: 'INSERT INTO roles (name, operations) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET operations = excluded.operations',
  nextSystemId: `UPDATE counters SET value = value + 1 WHERE name = 'systemId' RETURNING value`,
  // The key, its ACL (entries in order), its later versions and its tags in one round trip.
  key: `SELECT k.*${KEY_PARTS} FROM keys k WHERE k.ttag = $1`,
  // The row and its whole ACL in one statement: entries no longer listed go, the listed ones are
  // written in order. No row is touched twice in the statement (PostgreSQL does not allow it).
  putKey: `WITH k AS (
      INSERT INTO keys (ttag, nid, material, material_key_id, owner, label, created_at, expires_at, expired, acl_revision, min_version, rotation_period, disabled,
        deletion_at, deleted_at, key_type, key_alg, exportable, published, jwt_max_lifetime)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
      ON CONFLICT (ttag) DO UPDATE SET nid = excluded.nid, material = excluded.material, material_key_id = excluded.material_key_id,
      owner = excluded.owner, label = excluded.label, created_at = excluded.created_at, expires_at = excluded.expires_at,
      expired = excluded.expired, acl_revision = excluded.acl_revision, min_version = excluded.min_version, rotation_period = excluded.rotation_period,
      disabled = excluded.disabled, deletion_at = excluded.deletion_at, deleted_at = excluded.deleted_at, key_type = excluded.key_type,
      key_alg = excluded.key_alg, exportable = excluded.exportable, published = excluded.published, jwt_max_lifetime = excluded.jwt_max_lifetime
    ), gone AS (DELETE FROM key_acl WHERE ttag = $1 AND principal_id <> ALL ($11::text[]))
    INSERT INTO key_acl (ttag, principal_id, rights, position, conditions)
    SELECT $1, e.principal_id, e.rights, e.position - 1, e.conditions
    FROM unnest($11::text[], $12::text[], $23::text[]) WITH ORDINALITY AS e(principal_id, rights, conditions, position)
    ON CONFLICT (ttag, principal_id) DO UPDATE SET rights = excluded.rights, position = excluded.position, conditions = excluded.conditions`,
  // A version is added only after the key's row is written in the same unit: two units that add the
  // same version from one state then conflict on that row (a serialization failure, run again) rather
  // than one of them failing on the version's unique id.
  putKeyWriteLock: 'UPDATE keys SET min_version = min_version WHERE ttag = $1',
  // The last use alone (docs/spec.md §4.23 item 6): putKey never writes it.
  putKeyUse: 'UPDATE keys SET last_used_at = $1, last_used_op = $2 WHERE ttag = $3',
  alias: 'SELECT * FROM aliases WHERE name = $1',
  putAlias: `INSERT INTO aliases (name, ttag, created_at, updated_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (name) DO UPDATE SET ttag = excluded.ttag, created_at = excluded.created_at, updated_at = excluded.updated_at`,
  deleteAlias: 'DELETE FROM aliases WHERE name = $1',
  aliasCount: 'SELECT count(*)::int AS count FROM aliases WHERE ttag = $1',
  // A page of aliases (docs/spec.md §4.23 item 3): by name (the column's "C" collation), of the keys
  // the reaching principals own or find in their ACL entries (every key when $5 is NULL), within a
  // scope's keys when $4 is given.
  aliasesAfter: `SELECT a.* FROM aliases a JOIN keys k ON k.ttag = a.ttag
    WHERE ($1::text IS NULL OR a.name > $1) AND ($2::text IS NULL OR a.ttag = $2)
    AND ($3::text IS NULL OR left(a.name, length($3)) = $3)
    AND ($4::text[] IS NULL OR a.ttag = ANY ($4::text[]))
    AND ($5::text[] IS NULL OR k.owner = ANY ($5::text[])
      OR EXISTS (SELECT 1 FROM key_acl c WHERE c.ttag = a.ttag AND c.conditions IS NULL AND c.principal_id = ANY ($5::text[])))
    ORDER BY a.name LIMIT $6`,
  putKeyVersion: `INSERT INTO key_versions (id, ttag, version, material, material_key_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
  putKeyTag: 'INSERT INTO key_tags (ttag, name, value) VALUES ($1, $2, $3) ON CONFLICT (ttag, name) DO UPDATE SET value = excluded.value',
  deleteKeyTag: 'DELETE FROM key_tags WHERE ttag = $1 AND name = $2',
  // The token, and what the operation that shows it reads next (its principal, the principal's groups,
  // the stored roles) in the same round trip: an operation's unit keeps them (PostgresEngineStore).
  tokenAndHolder: `SELECT t.*, ${STORE_TABLES.principals.map((column) => `p.${column} AS "p.${column}"`).join(', ')},
    (SELECT coalesce(array_agg(m.group_id ORDER BY m.group_id COLLATE "C"), '{}'::text[]) FROM memberships m WHERE m.member_id = t.principal_id) AS "groupIds",
    (SELECT coalesce(json_agg(json_build_object('name', r.name, 'operations', r.operations) ORDER BY r.name), '[]') FROM roles r) AS "roles"
    FROM tokens t LEFT JOIN principals p ON p.principal_id = t.principal_id WHERE t.token_hash = $1`,
  delegatedTokens: 'SELECT * FROM tokens WHERE acting_for IS NOT NULL',
  putToken: `INSERT INTO tokens (token_hash, principal_id, issued_at, expires_at, scope, acting_for) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (token_hash) DO UPDATE SET principal_id = excluded.principal_id, issued_at = excluded.issued_at,
    expires_at = excluded.expires_at, scope = excluded.scope, acting_for = excluded.acting_for`,
  certificate: 'SELECT * FROM certificates WHERE id = $1',
  certificatesByRole: 'SELECT * FROM certificates WHERE role = $1 ORDER BY created_at, id COLLATE "C"',
  putCertificate: `INSERT INTO certificates (id, pem, role, principal_id, created_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (id) DO UPDATE SET pem = excluded.pem, role = excluded.role, principal_id = excluded.principal_id, created_at = excluded.created_at`,
  deleteCertificate: 'DELETE FROM certificates WHERE id = $1',
  deleteToken: 'DELETE FROM tokens WHERE token_hash = $1',
  deleteTokensOf: 'DELETE FROM tokens WHERE principal_id = $1',
  deleteTokensActingFor: 'DELETE FROM tokens WHERE acting_for = $1',
  deleteExpiredTokens: 'DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= $1',
  scheduledKeys: 'SELECT ttag FROM keys WHERE rotation_period IS NOT NULL AND expired = 0 ORDER BY ttag COLLATE "C"',
  keysDueForDeletion:
    'SELECT ttag FROM keys WHERE deletion_at IS NOT NULL AND deleted_at IS NULL AND deletion_at <= $1 ORDER BY ttag COLLATE "C"',
  // A tombstone (docs/spec.md §4.23 item 5), its versions and its aliases gone, in one statement: the
  // material empty and unsealed (no master key id, so the sealing trigger and passes leave it alone).
  putTombstone: `WITH k AS (
      UPDATE keys SET material = ''::bytea, material_key_id = NULL, deleted_at = $2, deletion_record = 0 WHERE ttag = $1
    ), v AS (DELETE FROM key_versions WHERE ttag = $1)
    DELETE FROM aliases WHERE ttag = $1`,
  unrecordedDestructions: `SELECT ttag, deleted_at FROM keys WHERE deletion_record IS NOT NULL AND deletion_record <= $1 AND deleted_at IS NOT NULL
    ORDER BY ttag COLLATE "C" LIMIT $2`,
  putDeletionRecord: 'UPDATE keys SET deletion_record = $2 WHERE ttag = $1 AND deleted_at IS NOT NULL',
  idempotencyRecord: 'SELECT * FROM idempotency WHERE principal_id = $1 AND idem_key = $2',
  // An upsert: a record whose window has passed is replaced. Two units writing the same new record
  // collide here, and SERIALIZABLE makes the later one run again, where it finds the first's record.
  putIdempotencyRecord: `INSERT INTO idempotency (principal_id, idem_key, operation, fingerprint, answer, created_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (principal_id, idem_key) DO UPDATE SET operation = excluded.operation, fingerprint = excluded.fingerprint,
    answer = excluded.answer, created_at = excluded.created_at`,
  deleteIdempotencyRecord: 'DELETE FROM idempotency WHERE principal_id = $1 AND idem_key = $2',
  deleteIdempotencyRecords: 'DELETE FROM idempotency WHERE created_at <= $1',
  setting: 'SELECT value, value_key_id FROM settings WHERE name = $1',
  putSetting: `INSERT INTO settings (name, value, value_key_id) VALUES ($1, $2, $3)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, value_key_id = excluded.value_key_id`,
  // Nothing that a restore would collide with, or silently lose.
  isEmpty: `SELECT NOT (EXISTS (SELECT 1 FROM principals) OR EXISTS (SELECT 1 FROM keys) OR EXISTS (SELECT 1 FROM certificates)
    OR EXISTS (SELECT 1 FROM roles) OR EXISTS (SELECT 1 FROM settings)) AS empty`,
} as const;

export type PgStatement = keyof typeof PG_STATEMENTS;

/** Reads one backed-up table whole, in its primary key's order, its columns as store-tables.ts names them. */
export function snapshotSql(table: keyof typeof STORE_TABLES): string {
  const columns = STORE_TABLES[table];
  const order =
    table === 'key_acl'
      ? 'ttag, position'
      : table === 'memberships'
        ? 'group_id, member_id'
        : table === 'idempotency'
          ? 'principal_id, idem_key'
          : table === 'key_tags'
            ? 'ttag, name'
            : columns[0];
  return `SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`;
}

/** Writes rows of one table as they were read from a snapshot (counters replace the schema's start values). */
export function restoreSql(table: keyof typeof STORE_TABLES): string {
  const columns = STORE_TABLES[table];
  const values = columns.map((_, index) => `$${index + 1}`).join(', ');
  const upsert = table === 'counters' ? ' ON CONFLICT (name) DO UPDATE SET value = excluded.value' : '';
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values})${upsert}`;
}
