import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import { ENGINE_SCHEMA_VERSION } from '../store/sqlite-engine-schema.js';
import { STORE_TABLES, type StoredRow, type StoredValue, type StoreSnapshot, type StoreTable, TABLE_ORDER } from '../store/store-tables.js';
import { BackupError } from './backup-error.js';
import { rowOf, sealedKeyIds, valuesOf } from './backup-rows.js';

/**
 * A key-server backup file: JSON lines.
 *
 *   line 1       the header (BackupHeader): format name and version, when it was taken, the schema
 *                version, the master keys its rows are sealed under, the row count and columns per table
 *   then         one line per row, {"table": name, "row": [values in the header's column order]}: sealed
 *                columns still sealed, bytes as {"base64": ...}; tokens are never in it (store-tables.ts)
 *   last line    {"mac": hex}: HMAC-SHA-256 over every byte before it, under a key derived by HKDF-SHA-256
 *                (RFC 5869) from the master key `macKeyId` with the header's salt
 *
 * Nothing of a file is trusted before its MAC is checked: a file cut short, re-ended or with one byte
 * changed is refused before a row is written. The file is built and read whole in memory, so it suits a
 * store of up to some hundreds of MB (a key's row is about 300 bytes: millions of keys).
 */
export const BACKUP_FORMAT = 'keygate-keyserver-backup';
export const BACKUP_VERSION = 1;
const MAC_INFO = 'keygate key-server backup mac v1';

export interface BackupHeader {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: typeof BACKUP_VERSION;
  /** ISO 8601, when the snapshot was read. */
  readonly createdAt: string;
  /** The engine schema version of the keygate that wrote it. */
  readonly schemaVersion: number;
  /** The master key ids the rows are sealed under (more than one only mid-rotation). */
  readonly masterKeyIds: readonly string[];
  /** The master key the MAC key is derived from, and the HKDF salt (base64). */
  readonly macKeyId: string;
  readonly salt: string;
  readonly counts: { readonly [table in StoreTable]: number };
  readonly columns: { readonly [table in StoreTable]: readonly string[] };
}

/** Encodes a snapshot as a backup file, authenticated under the keyring's current key. */
export function encodeBackup(snapshot: StoreSnapshot, keyring: MasterKeyring, createdAt: Date): { header: BackupHeader; bytes: Buffer } {
  const salt = randomBytes(16);
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: createdAt.toISOString(),
    schemaVersion: ENGINE_SCHEMA_VERSION,
    masterKeyIds: sealedKeyIds(snapshot),
    macKeyId: keyring.current.id,
    salt: salt.toString('base64'),
    counts: perTable((table) => snapshot.tables[table].length),
    columns: perTable((table) => STORE_TABLES[table]),
  };
  const lines = [JSON.stringify(header)];
  for (const table of TABLE_ORDER) {
    for (const row of snapshot.tables[table]) lines.push(JSON.stringify({ table, row: valuesOf(table, row) }));
  }
  const body = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  const mac = createHmac('sha256', macKey(keyring, header)).update(body).digest('hex');
  return { header, bytes: Buffer.concat([body, Buffer.from(`${JSON.stringify({ mac })}\n`, 'utf8')]) };
}

/**
 * Reads a backup file: its end and header, then the master keys it needs (a missing one is named),
 * then its MAC, and only then its rows, whose counts must match the header's.
 */
export function decodeBackup(
  bytes: Buffer,
  keys: MasterKeyring | undefined,
): { header: BackupHeader; snapshot: StoreSnapshot; keyring: MasterKeyring } {
  const { body, mac } = splitTrailer(bytes);
  const headerEnd = body.indexOf(0x0a);
  const header = headerOf(body.subarray(0, headerEnd).toString('utf8'));
  const missing = [...new Set([header.macKeyId, ...header.masterKeyIds])].filter((id) => !keys?.has(id));
  const keyring = keys;
  if (keyring === undefined || missing.length > 0) {
    throw new BackupError(
      `sealed under master key ${missing.join(', ')}, which was not given (TE_KEYSERVER_MASTER_KEY, --master-key-file, or the key file beside the data)`,
    );
  }
  const expected = createHmac('sha256', macKey(keyring, header)).update(body).digest();
  if (!/^[0-9a-f]{64}$/.test(mac) || !timingSafeEqual(expected, Buffer.from(mac, 'hex'))) {
    throw new BackupError('altered: its authentication code does not match its content (a byte changed, or part of it cut)');
  }
  return { header, snapshot: rowsOf(body.subarray(headerEnd + 1), header), keyring };
}

function perTable<T>(value: (table: StoreTable) => T): { [table in StoreTable]: T } {
  return Object.fromEntries(TABLE_ORDER.map((table) => [table, value(table)])) as { [table in StoreTable]: T };
}

function macKey(keyring: MasterKeyring, header: BackupHeader): Buffer {
  return Buffer.from(hkdfSync('sha256', keyring.key(header.macKeyId).key, Buffer.from(header.salt, 'base64'), MAC_INFO, 32));
}

/** The body (every byte up to the last line) and the MAC the last line holds. */
function splitTrailer(bytes: Buffer): { body: Buffer; mac: string } {
  const truncated = new BackupError('truncated, or not a keygate key-server backup: it does not end with its authentication line');
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) throw truncated;
  const start = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  if (start === 0) throw truncated;
  const mac = parsed(bytes.subarray(start, bytes.length - 1).toString('utf8'))?.mac;
  if (typeof mac !== 'string') throw truncated;
  return { body: bytes.subarray(0, start), mac };
}

function headerOf(line: string): BackupHeader {
  const header = parsed(line);
  if (header?.format !== BACKUP_FORMAT) throw new BackupError('not a keygate key-server backup (its first line is not a backup header)');
  if (header.version !== BACKUP_VERSION)
    throw new BackupError(`backup format version ${String(header.version)}; this keygate reads version ${BACKUP_VERSION}`);
  const ids = header.masterKeyIds;
  if (
    typeof header.macKeyId !== 'string' ||
    typeof header.salt !== 'string' ||
    !Array.isArray(ids) ||
    !ids.every((id) => typeof id === 'string')
  ) {
    throw new BackupError('not a keygate key-server backup (its header lacks its master key ids)');
  }
  return header as unknown as BackupHeader;
}

/** The rows of an authenticated body: its layout must be this keygate's, or an older one (below), and each table's count the header's. */
function rowsOf(lines: Buffer, header: BackupHeader): StoreSnapshot {
  const beforeVersions = isBeforeKeyVersions(header.columns);
  const keyColumns = beforeVersions ? KEYS_BEFORE_VERSIONS : keysLayoutOf(header.columns?.keys);
  const aclColumns = aclLayoutOf(header.columns?.key_acl);
  const otherLayout = (table: StoreTable) =>
    table !== 'keys' &&
    table !== 'key_acl' &&
    !absentAndAdded(header.columns, table) &&
    JSON.stringify(header.columns?.[table]) !== JSON.stringify(STORE_TABLES[table]);
  if (keyColumns === undefined || aclColumns === undefined || (!beforeVersions && TABLE_ORDER.some(otherLayout))) {
    throw new BackupError(
      `written with another table layout (schema version ${header.schemaVersion}; this keygate's is ${ENGINE_SCHEMA_VERSION})`,
    );
  }
  const tables = perTable((): StoredRow[] => []);
  for (const line of lines.toString('utf8').split('\n').slice(0, -1)) {
    const entry = parsed(line);
    const table = entry?.table as StoreTable;
    if (!TABLE_ORDER.includes(table) || !Array.isArray(entry?.row) || absentAndAdded(header.columns, table))
      throw new BackupError('holds a line that is not a row');
    if (table === 'keys') tables.keys.push({ ...KEYS_ADDED, ...rowOf(table, entry.row as StoredValue[], keyColumns) });
    else if (table === 'key_acl') tables.key_acl.push({ conditions: null, ...rowOf(table, entry.row as StoredValue[], aclColumns) });
    else tables[table].push(rowOf(table, entry.row as StoredValue[]));
  }
  const counted = (table: StoreTable) => (absentAndAdded(header.columns, table) ? 0 : header.counts?.[table]);
  const wrong = TABLE_ORDER.find((table) => tables[table].length !== counted(table));
  if (wrong !== undefined)
    throw new BackupError(`holds ${tables[wrong].length} ${wrong} rows; its header says ${String(header.counts?.[wrong])}`);
  const unnamed = sealedKeyIds({ tables }).filter((id) => !header.masterKeyIds.includes(id));
  if (unnamed.length > 0) throw new BackupError(`holds rows sealed under master key ${unnamed.join(', ')}, which its header does not name`);
  return { tables };
}

/**
 * The columns the keys table gained since the oldest layout this keygate restores, with the value a row
 * of a backup without them restores with: version 1 as the minimum, no rotation period (engine schemas
 * 7 and 8), active (schema 9, docs/spec.md §4.6), no deletion, tombstone or last use (schema 10,
 * §4.23), a symmetric key (schema 11, §4.25), as the schema migrations leave a store of that time.
 */
const KEYS_ADDED: StoredRow = {
  min_version: 1,
  rotation_period: null,
  disabled: 0,
  deletion_at: null,
  deleted_at: null,
  deletion_record: null,
  last_used_at: null,
  last_used_op: null,
  key_type: 'aes',
  key_alg: null,
  exportable: 0,
  published: 0,
  jwt_max_lifetime: null,
};
const SIGNING_COLUMNS: readonly string[] = ['key_type', 'key_alg', 'exportable', 'published', 'jwt_max_lifetime'];
const INVENTORY_COLUMNS: readonly string[] = ['deletion_at', 'deleted_at', 'deletion_record', 'last_used_at', 'last_used_op'];
/** The keys table before key versions (engine schema 6): without a minimum version, a rotation period, a state or the inventory's columns. */
const KEYS_BEFORE_VERSIONS: readonly string[] = STORE_TABLES.keys.filter((column) => !(column in KEYS_ADDED));
/** The keys table before signing keys (engine schema 10). */
const KEYS_BEFORE_SIGNING: readonly string[] = STORE_TABLES.keys.filter((column) => !SIGNING_COLUMNS.includes(column));
/** The keys table before the key inventory (engine schema 9). */
const KEYS_BEFORE_INVENTORY: readonly string[] = KEYS_BEFORE_SIGNING.filter((column) => !INVENTORY_COLUMNS.includes(column));
/** The keys table before key states (engine schema 8): without `disabled` either. */
const KEYS_BEFORE_STATES: readonly string[] = KEYS_BEFORE_INVENTORY.filter((column) => column !== 'disabled');

/** The keys columns of a backup written since key versions: this keygate's, or those before signing keys, the inventory or key states. */
function keysLayoutOf(columns: readonly string[] | undefined): readonly string[] | undefined {
  return [STORE_TABLES.keys, KEYS_BEFORE_SIGNING, KEYS_BEFORE_INVENTORY, KEYS_BEFORE_STATES].find(
    (layout) => JSON.stringify(columns) === JSON.stringify(layout),
  );
}
/**
 * The key_acl columns of a backup: this keygate's, or those before grant conditions (engine schema 11),
 * whose entries restore unconditioned (docs/spec.md §4.5b item 4), as the schema migration leaves them.
 */
const ACL_BEFORE_CONDITIONS: readonly string[] = STORE_TABLES.key_acl.filter((column) => column !== 'conditions');

function aclLayoutOf(columns: readonly string[] | undefined): readonly string[] | undefined {
  return [STORE_TABLES.key_acl, ACL_BEFORE_CONDITIONS].find((layout) => JSON.stringify(columns) === JSON.stringify(layout));
}

/** The tables that came with key versions (engine schemas 7 and 8): a backup of before holds none of their rows. */
const ADDED_WITH_VERSIONS: readonly StoreTable[] = ['key_versions', 'idempotency'];
/** The tables that came with the key inventory (engine schema 10): a backup of before holds no tag and no alias. */
const ADDED_WITH_INVENTORY: readonly StoreTable[] = ['key_tags', 'aliases'];

/** A table a backup written before it existed lacks: it restores empty. */
function absentAndAdded(columns: BackupHeader['columns'] | undefined, table: StoreTable): boolean {
  return [...ADDED_WITH_VERSIONS, ...ADDED_WITH_INVENTORY].includes(table) && columns?.[table] === undefined;
}

/**
 * A backup written before key versions: no key_versions, idempotency, tag or alias table, keys without
 * min_version or rotation_period. It restores with each key at version 1 (its own material), minimum
 * version 1 and no rotation period, as the schema migration leaves a store of that time.
 */
function isBeforeKeyVersions(columns: BackupHeader['columns'] | undefined): boolean {
  const layout = (table: StoreTable) =>
    table === 'keys' ? KEYS_BEFORE_VERSIONS : table === 'key_acl' ? ACL_BEFORE_CONDITIONS : STORE_TABLES[table];
  return (
    ADDED_WITH_VERSIONS.every((table) => columns?.[table] === undefined) &&
    TABLE_ORDER.every((table) => absentAndAdded(columns, table) || JSON.stringify(columns?.[table]) === JSON.stringify(layout(table)))
  );
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON line, read by its shape and checked field by field
function parsed(line: string): Record<string, any> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
