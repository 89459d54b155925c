import type { Database, Statement } from 'better-sqlite3';

/** Every statement of the SQLite engine store, prepared once when the store opens. */
export const STATEMENTS = {
  // One engine operation's transaction (`atomically`): deferred, so a read-only one never takes the write lock.
  begin: 'BEGIN',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
  // Changes when another connection commits to the file (a read cache's check).
  dataVersion: 'PRAGMA data_version',
  principalByName: 'SELECT * FROM principals WHERE name = ?',
  principalById: 'SELECT * FROM principals WHERE principal_id = ?',
  // An upsert: INSERT OR REPLACE deletes and re-inserts, and an update must never look like the
  // deletion the schema cascades (memberships, tokens, enrolled certificates).
  putPrincipal: `INSERT INTO principals
    (name, principal_id, kind, system_id, display_name, disabled, roles, srp_salt, srp_verifier, verifier_key_id, sender_key, delegates, provisioned_by, created_at)
    VALUES (@name, @principal_id, @kind, @system_id, @display_name, @disabled, @roles, @srp_salt, @srp_verifier, @verifier_key_id, @sender_key, @delegates, @provisioned_by, @created_at)
    ON CONFLICT (name) DO UPDATE SET principal_id = excluded.principal_id, kind = excluded.kind, system_id = excluded.system_id,
    display_name = excluded.display_name, disabled = excluded.disabled, roles = excluded.roles, srp_salt = excluded.srp_salt,
    srp_verifier = excluded.srp_verifier, verifier_key_id = excluded.verifier_key_id, sender_key = excluded.sender_key,
    delegates = excluded.delegates, provisioned_by = excluded.provisioned_by, created_at = excluded.created_at`,
  principalsAfter: `SELECT * FROM principals
    WHERE (@after IS NULL OR name > @after) AND (@kind IS NULL OR kind = @kind)
    ORDER BY name LIMIT @limit`,
  deletePrincipal: 'DELETE FROM principals WHERE principal_id = ?',
  groupIdsOf: 'SELECT group_id FROM memberships WHERE member_id = ? ORDER BY group_id',
  memberIdsOf: 'SELECT member_id FROM memberships WHERE group_id = ? ORDER BY member_id',
  putMembership: 'INSERT OR IGNORE INTO memberships (group_id, member_id) VALUES (?, ?)',
  deleteMembership: 'DELETE FROM memberships WHERE group_id = ? AND member_id = ?',
  deleteMembershipsOf: 'DELETE FROM memberships WHERE group_id = ? OR member_id = ?',
  role: 'SELECT * FROM roles WHERE name = ?',
  roles: 'SELECT * FROM roles ORDER BY name',
  putRole: 'INSERT INTO roles (name, operations) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET operations = excluded.operations',
  nextSystemId: `UPDATE counters SET value = value + 1 WHERE name = 'systemId' RETURNING value`,
  key: 'SELECT * FROM keys WHERE ttag = ?',
  keyAcl: 'SELECT principal_id, rights, conditions FROM key_acl WHERE ttag = ? ORDER BY position',
  putKey: `INSERT INTO keys (ttag, nid, material, material_key_id, owner, label, created_at, expires_at, expired, acl_revision, min_version, rotation_period, disabled,
      deletion_at, deleted_at, key_type, key_alg, exportable, published, jwt_max_lifetime)
    VALUES (@ttag, @nid, @material, @material_key_id, @owner, @label, @created_at, @expires_at, @expired, @acl_revision, @min_version, @rotation_period, @disabled,
      @deletion_at, @deleted_at, @key_type, @key_alg, @exportable, @published, @jwt_max_lifetime)
    ON CONFLICT (ttag) DO UPDATE SET nid = excluded.nid, material = excluded.material, material_key_id = excluded.material_key_id, owner = excluded.owner,
    label = excluded.label, created_at = excluded.created_at, expires_at = excluded.expires_at, expired = excluded.expired,
    acl_revision = excluded.acl_revision, min_version = excluded.min_version, rotation_period = excluded.rotation_period,
    disabled = excluded.disabled, deletion_at = excluded.deletion_at, deleted_at = excluded.deleted_at, key_type = excluded.key_type,
    key_alg = excluded.key_alg, exportable = excluded.exportable, published = excluded.published, jwt_max_lifetime = excluded.jwt_max_lifetime`,
  keyVersions: 'SELECT id, version, material, material_key_id, created_at FROM key_versions WHERE ttag = ? ORDER BY version',
  putKeyVersion: `INSERT INTO key_versions (id, ttag, version, material, material_key_id, created_at)
    VALUES (@id, @ttag, @version, @material, @material_key_id, @created_at)`,
  scheduledKeys: 'SELECT ttag FROM keys WHERE rotation_period IS NOT NULL AND expired = 0 ORDER BY ttag',
  // The last use alone (docs/spec.md §4.23 item 6): putKey never writes it.
  putKeyUse: 'UPDATE keys SET last_used_at = ?, last_used_op = ? WHERE ttag = ?',
  alias: 'SELECT * FROM aliases WHERE name = ?',
  putAlias: `INSERT INTO aliases (name, ttag, created_at, updated_at) VALUES (@name, @ttag, @created_at, @updated_at)
    ON CONFLICT (name) DO UPDATE SET ttag = excluded.ttag, created_at = excluded.created_at, updated_at = excluded.updated_at`,
  deleteAlias: 'DELETE FROM aliases WHERE name = ?',
  aliasCount: 'SELECT count(*) AS count FROM aliases WHERE ttag = ?',
  // A page of aliases (docs/spec.md §4.23 item 3): by name, of the keys the reaching principals own or
  // find in their ACL entries (every key when @reach is NULL), within a scope's keys when given.
  aliasesAfter: `SELECT a.* FROM aliases a JOIN keys k ON k.ttag = a.ttag
    WHERE (@after IS NULL OR a.name > @after) AND (@ttag IS NULL OR a.ttag = @ttag)
    AND (@prefix IS NULL OR substr(a.name, 1, length(@prefix)) = @prefix)
    AND (@within IS NULL OR a.ttag IN (SELECT value FROM json_each(@within)))
    AND (@reach IS NULL OR k.owner IN (SELECT value FROM json_each(@reach))
      OR EXISTS (SELECT 1 FROM key_acl c WHERE c.ttag = a.ttag AND c.conditions IS NULL
        AND c.principal_id IN (SELECT value FROM json_each(@reach))))
    ORDER BY a.name LIMIT @limit`,
  // A page's keys' ACLs, versions and tags, each in one statement over the page's ttags (a JSON array).
  pageAcl:
    'SELECT ttag, principal_id, rights, conditions FROM key_acl WHERE ttag IN (SELECT value FROM json_each(?)) ORDER BY ttag, position',
  pageVersions: `SELECT ttag, id, version, material, material_key_id, created_at FROM key_versions
    WHERE ttag IN (SELECT value FROM json_each(?)) ORDER BY ttag, version`,
  pageTags: 'SELECT ttag, name, value FROM key_tags WHERE ttag IN (SELECT value FROM json_each(?)) ORDER BY ttag, name',
  keyTags: 'SELECT name, value FROM key_tags WHERE ttag = ? ORDER BY name',
  putKeyTag: 'INSERT INTO key_tags (ttag, name, value) VALUES (?, ?, ?) ON CONFLICT (ttag, name) DO UPDATE SET value = excluded.value',
  deleteKeyTag: 'DELETE FROM key_tags WHERE ttag = ? AND name = ?',
  keysDueForDeletion: 'SELECT ttag FROM keys WHERE deletion_at IS NOT NULL AND deleted_at IS NULL AND deletion_at <= ? ORDER BY ttag',
  // A tombstone (docs/spec.md §4.23 item 5): no material (an empty value, not sealed: the sealing passes
  // leave rows with deleted_at alone), no later version, no alias.
  putTombstone: `UPDATE keys SET material = X'', material_key_id = NULL, deleted_at = ?, deletion_record = 0 WHERE ttag = ?`,
  deleteKeyVersions: 'DELETE FROM key_versions WHERE ttag = ?',
  deleteAliasesOf: 'DELETE FROM aliases WHERE ttag = ?',
  unrecordedDestructions: `SELECT ttag, deleted_at FROM keys WHERE deletion_record IS NOT NULL AND deletion_record <= ? AND deleted_at IS NOT NULL
    ORDER BY ttag LIMIT ?`,
  putDeletionRecord: 'UPDATE keys SET deletion_record = ? WHERE ttag = ? AND deleted_at IS NOT NULL',
  clearAcl: 'DELETE FROM key_acl WHERE ttag = ?',
  putAclEntry: 'INSERT INTO key_acl (ttag, principal_id, rights, position, conditions) VALUES (?, ?, ?, ?, ?)',
  token: 'SELECT * FROM tokens WHERE token_hash = ?',
  delegatedTokens: 'SELECT * FROM tokens WHERE acting_for IS NOT NULL',
  putToken: 'INSERT OR REPLACE INTO tokens (token_hash, principal_id, issued_at, expires_at, scope, acting_for) VALUES (?, ?, ?, ?, ?, ?)',
  certificate: 'SELECT * FROM certificates WHERE id = ?',
  certificatesByRole: 'SELECT * FROM certificates WHERE role = ? ORDER BY created_at, id',
  putCertificate: 'INSERT OR REPLACE INTO certificates (id, pem, role, principal_id, created_at) VALUES (?, ?, ?, ?, ?)',
  deleteCertificate: 'DELETE FROM certificates WHERE id = ?',
  deleteToken: 'DELETE FROM tokens WHERE token_hash = ?',
  deleteTokensOf: 'DELETE FROM tokens WHERE principal_id = ?',
  deleteTokensActingFor: 'DELETE FROM tokens WHERE acting_for = ?',
  deleteExpiredTokens: 'DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= ?',
  idempotencyRecord: 'SELECT * FROM idempotency WHERE principal_id = ? AND idem_key = ?',
  putIdempotencyRecord: `INSERT INTO idempotency (principal_id, idem_key, operation, fingerprint, answer, created_at)
    VALUES (@principal_id, @idem_key, @operation, @fingerprint, @answer, @created_at)
    ON CONFLICT (principal_id, idem_key) DO UPDATE SET operation = excluded.operation, fingerprint = excluded.fingerprint,
    answer = excluded.answer, created_at = excluded.created_at`,
  deleteIdempotencyRecord: 'DELETE FROM idempotency WHERE principal_id = ? AND idem_key = ?',
  deleteIdempotencyRecords: 'DELETE FROM idempotency WHERE created_at <= ?',
  setting: 'SELECT value, value_key_id FROM settings WHERE name = ?',
  putSetting: `INSERT INTO settings (name, value, value_key_id) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, value_key_id = excluded.value_key_id`,
} as const;

export type Statements = { readonly [name in keyof typeof STATEMENTS]: Statement };

export function prepare(db: Database): Statements {
  return Object.fromEntries(Object.entries(STATEMENTS).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
}
