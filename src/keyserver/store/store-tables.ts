/**
 * The tables a durable engine store keeps, the same in SQLite and in PostgreSQL: the same names, the
 * same columns, the same values (sealed columns hold AES-256-GCM under a master key named in the
 * column beside them, with `keygate <table> <row id>` as additional data). A row therefore moves from
 * one store to another as it is, still sealed: that is how a backup is taken and restored.
 *
 * Tokens are not backed up: a restored store starts with no session, so a token revoked after the
 * backup was taken cannot come back to life. Idempotency records are: a store restored within a
 * day of its backup must still answer a retried create with the key the first request made, not
 * create a second one.
 */
export const STORE_TABLES = {
  principals: [
    'name',
    'principal_id',
    'kind',
    'system_id',
    'display_name',
    'disabled',
    'roles',
    'srp_salt',
    'srp_verifier',
    'verifier_key_id',
    'sender_key',
    'delegates',
    'provisioned_by',
    'created_at',
  ],
  memberships: ['group_id', 'member_id'],
  roles: ['name', 'operations'],
  keys: [
    'ttag',
    'nid',
    'material',
    'material_key_id',
    'owner',
    'label',
    'created_at',
    'expires_at',
    'expired',
    'acl_revision',
    'min_version',
    'rotation_period',
    'disabled',
    'deletion_at',
    'deleted_at',
    'deletion_record',
    'last_used_at',
    'last_used_op',
    'key_type',
    'key_alg',
    'exportable',
    'published',
    'jwt_max_lifetime',
  ],
  key_versions: ['id', 'ttag', 'version', 'material', 'material_key_id', 'created_at'],
  key_acl: ['ttag', 'principal_id', 'rights', 'position', 'conditions'],
  key_tags: ['ttag', 'name', 'value'],
  aliases: ['name', 'ttag', 'created_at', 'updated_at'],
  certificates: ['id', 'pem', 'role', 'principal_id', 'created_at'],
  settings: ['name', 'value', 'value_key_id'],
  counters: ['name', 'value'],
  idempotency: ['principal_id', 'idem_key', 'operation', 'fingerprint', 'answer', 'created_at'],
} as const;

export type StoreTable = keyof typeof STORE_TABLES;

/** A column's value as stored: text, an integer, bytes (a salt, a sealed value), or NULL. */
export type StoredValue = string | number | Buffer | null;

/** One row, by column name (the columns of its table in STORE_TABLES). */
export type StoredRow = Readonly<Record<string, StoredValue>>;

/** Every backed-up table's rows, read in one state of the store. */
export interface StoreSnapshot {
  readonly tables: { readonly [table in StoreTable]: readonly StoredRow[] };
}

/** Tables in an order that keeps references intact when rows are written (a key before its ACL). */
export const TABLE_ORDER: readonly StoreTable[] = [
  'counters',
  'settings',
  'roles',
  'principals',
  'memberships',
  'certificates',
  'keys',
  'key_versions',
  'key_acl',
  'key_tags',
  'aliases',
  'idempotency',
];
