import { createHmac, hkdfSync } from 'node:crypto';
import test from 'ava';
import { generateMasterKey, MasterKeyring } from '../../../src/keyserver/at-rest/master-keys.js';
import { decodeBackup, encodeBackup } from '../../../src/keyserver/backup/backup-format.js';
import type { StoreSnapshot } from '../../../src/keyserver/store/store-tables.js';

const key = generateMasterKey();
const keyring = new MasterKeyring([key]);

const snapshot: StoreSnapshot = {
  tables: {
    counters: [{ name: 'systemId', value: 1002 }],
    settings: [{ name: 'decoySecret', value: 'c2VhbGVk', value_key_id: key.id }],
    roles: [{ name: 'reader', operations: '["keys.read"]' }],
    principals: [
      {
        name: 'alice',
        principal_id: 'a1a1a1a1a1a1a1a1',
        kind: 'user',
        system_id: 1001,
        display_name: null,
        disabled: 0,
        roles: '["user"]',
        srp_salt: Buffer.alloc(16, 1),
        srp_verifier: Buffer.alloc(48, 2),
        verifier_key_id: key.id,
        sender_key: null,
        delegates: null,
        provisioned_by: null,
        created_at: 1_700_000_000_000,
      },
    ],
    memberships: [],
    certificates: [],
    keys: [
      {
        ttag: 'dGFn',
        nid: 0,
        material: Buffer.alloc(60, 3),
        material_key_id: key.id,
        owner: 'a1a1a1a1a1a1a1a1',
        label: 'payroll',
        created_at: 1_700_000_000_000,
        expires_at: null,
        expired: 0,
        acl_revision: 2,
        rotation_period: 'P90D',
        min_version: 2,
        disabled: 1,
        deletion_at: 1_700_604_800_000,
        deleted_at: null,
        deletion_record: null,
        last_used_at: 1_700_000_060_000,
        last_used_op: 'encrypt',
        key_type: 'ec-p256',
        key_alg: 'ES256',
        exportable: 1,
        published: 1,
        jwt_max_lifetime: 600,
      },
    ],
    key_versions: [
      { id: 'dGFn 2', ttag: 'dGFn', version: 2, material: Buffer.alloc(60, 4), material_key_id: key.id, created_at: 1_700_000_100_000 },
    ],
    key_acl: [
      { ttag: 'dGFn', principal_id: 'b2b2b2b2b2b2b2b2', rights: '["read"]', position: 0, conditions: null },
      { ttag: 'dGFn', principal_id: 'c3c3c3c3c3c3c3c3', rights: '["decrypt"]', position: 1, conditions: '{"context":{"tenant":"acme"}}' },
    ],
    key_tags: [{ ttag: 'dGFn', name: 'team', value: 'payments' }],
    aliases: [{ name: 'payroll', ttag: 'dGFn', created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000 }],
    idempotency: [
      {
        principal_id: 'a1a1a1a1a1a1a1a1',
        idem_key: 'create-payroll-1',
        operation: 'generateKey',
        fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
        answer: '{"ttag":"dGFn"}',
        created_at: 1_700_000_000_000,
      },
    ],
  },
};

/** The keys columns the key inventory added (engine schema 10), and the values a key of before restores with. */
const INVENTORY = ['deletion_at', 'deleted_at', 'deletion_record', 'last_used_at', 'last_used_op'];
const NO_INVENTORY = { deletion_at: null, deleted_at: null, deletion_record: null, last_used_at: null, last_used_op: null };
/** The keys columns signing keys added (engine schema 11), and the values a key of before restores with: an aes key. */
const SIGNING = ['key_type', 'key_alg', 'exportable', 'published', 'jwt_max_lifetime'];
const NO_SIGNING = { key_type: 'aes', key_alg: null, exportable: 0, published: 0, jwt_max_lifetime: null };

/**
 * Makes a backup's key_acl as a keygate before grant conditions (engine schema 11) wrote it: without the
 * column. Every older layout's test applies it, as every older keygate lacked the column.
 */
function beforeConditions(h: { columns: Record<string, string[]> }, lines: string[]): void {
  h.columns.key_acl = h.columns.key_acl!.filter((column) => column !== 'conditions');
  for (let i = lines.length - 1; i > 0; i--) {
    const entry = JSON.parse(lines[i]!);
    if (entry.table === 'key_acl') lines[i] = JSON.stringify({ table: 'key_acl', row: entry.row.slice(0, -1) });
  }
}
/** The ACL an older backup restores: every entry unconditioned (docs/spec.md §4.5b item 4). */
const UNCONDITIONED = snapshot.tables.key_acl.map((row) => ({ ...row, conditions: null }));

/** Edits a backup's body and authenticates it again, as only a holder of the master key could. */
function edited(bytes: Buffer, edit: (lines: string[]) => void): Buffer {
  const lines = bytes.toString('utf8').split('\n').slice(0, -2);
  edit(lines);
  const body = `${lines.join('\n')}\n`;
  const header = JSON.parse(lines[0]!);
  const macKey = Buffer.from(hkdfSync('sha256', key.key, Buffer.from(header.salt, 'base64'), 'keygate key-server backup mac v1', 32));
  return Buffer.from(`${body}${JSON.stringify({ mac: createHmac('sha256', macKey).update(body).digest('hex') })}\n`);
}

test('a snapshot comes back from its backup as it went in, bytes included', (t) => {
  const { header, bytes } = encodeBackup(snapshot, keyring, new Date(1_700_000_000_000));
  t.like(header, {
    format: 'keygate-keyserver-backup',
    version: 1,
    createdAt: '2023-11-14T22:13:20.000Z',
    masterKeyIds: [key.id],
    macKeyId: key.id,
  });
  t.like(header.counts, { principals: 1, keys: 1, key_acl: 2, memberships: 0 });
  const decoded = decodeBackup(bytes, keyring);
  t.deepEqual(decoded.snapshot, snapshot);
  t.deepEqual(decoded.header, header);
  t.is(bytes.indexOf(Buffer.alloc(60, 3)), -1, 'bytes are written as base64');
});

const header = (edit: (value: Record<string, unknown>) => void) => (lines: string[]) => {
  const value = JSON.parse(lines[0]!);
  edit(value);
  lines[0] = JSON.stringify(value);
};

const refusals: { title: string; edit: (lines: string[]) => void; message: RegExp }[] = [
  {
    title: 'a row count its header does not say',
    edit: header((h) => ((h.counts as Record<string, number>).keys = 2)),
    message: /^holds 1 keys rows; its header says 2$/,
  },
  {
    title: 'another table layout',
    edit: header((h) => ((h.columns as Record<string, string[]>).roles = ['name'])),
    message: /^written with another table layout/,
  },
  {
    title: 'another format version',
    edit: header((h) => (h.version = 2)),
    message: /^backup format version 2; this keygate reads version 1$/,
  },
  { title: 'another format', edit: header((h) => (h.format = 'something')), message: /^not a keygate key-server backup/ },
  {
    title: 'a line that is not a row',
    edit: (lines) => lines.push('{"table":"tokens","row":[]}'),
    message: /^holds a line that is not a row$/,
  },
  {
    title: 'a row of the wrong width',
    edit: (lines) => lines.push('{"table":"roles","row":["x"]}'),
    message: /^holds a roles row of 1 values; the table has 2 columns$/,
  },
  {
    title: 'a value no column holds',
    edit: (lines) => lines.push('{"table":"roles","row":["x",{"y":1}]}'),
    message: /^holds a roles row whose operations is not a stored value$/,
  },
  {
    title: 'a row sealed under a key its header does not name',
    edit: header((h) => (h.masterKeyIds = [])),
    message: new RegExp(`^holds rows sealed under master key ${key.id}, which its header does not name$`),
  },
];

for (const { title, edit, message } of refusals) {
  test(`an authenticated backup with ${title} is refused`, (t) => {
    const { bytes } = encodeBackup(snapshot, keyring, new Date());
    t.throws(() => decodeBackup(edited(bytes, edit), keyring), { name: 'BackupError', message });
  });
}

test('an edit without the master key is refused by the MAC, and a missing key is named before it', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  const text = bytes.toString('utf8').replace('payroll', 'payrolL');
  t.throws(() => decodeBackup(Buffer.from(text), keyring), { message: /^altered: / });
  const other = new MasterKeyring([generateMasterKey()]);
  t.throws(() => decodeBackup(bytes, other), { message: new RegExp(`^sealed under master key ${key.id}, which was not given`) });
  t.throws(() => decodeBackup(bytes, undefined), { message: new RegExp(`^sealed under master key ${key.id}, which was not given`) });
  t.throws(() => decodeBackup(Buffer.alloc(0), keyring), { message: /^truncated/ });
});

test('a backup written before key versions reads back with each key at version 1 and minimum version 1', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  const before = edited(bytes, (lines) => {
    const h = JSON.parse(lines[0]!);
    h.schemaVersion = 6;
    h.columns.keys = h.columns.keys.filter(
      (column: string) => !['min_version', 'rotation_period', 'disabled', ...INVENTORY, ...SIGNING].includes(column),
    );
    for (const table of ['key_versions', 'idempotency', 'key_tags', 'aliases']) {
      delete h.columns[table];
      delete h.counts[table];
    }
    beforeConditions(h, lines);
    lines[0] = JSON.stringify(h);
    for (let i = lines.length - 1; i > 0; i--) {
      const entry = JSON.parse(lines[i]!);
      if (['key_versions', 'idempotency', 'key_tags', 'aliases'].includes(entry.table)) lines.splice(i, 1);
      else if (entry.table === 'keys') lines[i] = JSON.stringify({ table: 'keys', row: entry.row.slice(0, -13) });
    }
  });
  const decoded = decodeBackup(before, keyring);
  t.deepEqual(decoded.snapshot.tables.key_acl, UNCONDITIONED);
  t.deepEqual(decoded.snapshot.tables.key_versions, []);
  t.deepEqual(decoded.snapshot.tables.idempotency, []);
  t.deepEqual(decoded.snapshot.tables.keys, [
    { ...snapshot.tables.keys[0], min_version: 1, rotation_period: null, disabled: 0, ...NO_INVENTORY, ...NO_SIGNING },
  ]);
  t.deepEqual(decoded.snapshot.tables.principals, snapshot.tables.principals);
});

test('a backup written before key states reads back with each key active, the rest as it went in', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  t.deepEqual(decodeBackup(bytes, keyring).snapshot.tables.keys, snapshot.tables.keys, 'a disabled key stays disabled');
  const before = edited(bytes, (lines) => {
    const h = JSON.parse(lines[0]!);
    h.schemaVersion = 8;
    h.columns.keys = h.columns.keys.filter((column: string) => column !== 'disabled' && ![...INVENTORY, ...SIGNING].includes(column));
    for (const table of ['key_tags', 'aliases']) {
      delete h.columns[table];
      delete h.counts[table];
    }
    beforeConditions(h, lines);
    lines[0] = JSON.stringify(h);
    for (let i = lines.length - 1; i > 0; i--) {
      const entry = JSON.parse(lines[i]!);
      if (entry.table === 'key_tags' || entry.table === 'aliases') lines.splice(i, 1);
      else if (entry.table === 'keys') lines[i] = JSON.stringify({ table: 'keys', row: entry.row.slice(0, -11) });
    }
  });
  const decoded = decodeBackup(before, keyring);
  t.deepEqual(decoded.snapshot.tables.key_acl, UNCONDITIONED);
  t.deepEqual(decoded.snapshot.tables.keys, [{ ...snapshot.tables.keys[0], disabled: 0, ...NO_INVENTORY, ...NO_SIGNING }]);
  t.deepEqual(decoded.snapshot.tables.key_versions, snapshot.tables.key_versions);
  t.deepEqual(decoded.snapshot.tables.idempotency, snapshot.tables.idempotency);
});

test('a backup written before the key inventory reads back with no tag, alias, deletion or last use, the rest as it went in', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  const before = edited(bytes, (lines) => {
    const h = JSON.parse(lines[0]!);
    h.schemaVersion = 9;
    h.columns.keys = h.columns.keys.filter((column: string) => ![...INVENTORY, ...SIGNING].includes(column));
    for (const table of ['key_tags', 'aliases']) {
      delete h.columns[table];
      delete h.counts[table];
    }
    beforeConditions(h, lines);
    lines[0] = JSON.stringify(h);
    for (let i = lines.length - 1; i > 0; i--) {
      const entry = JSON.parse(lines[i]!);
      if (entry.table === 'key_tags' || entry.table === 'aliases') lines.splice(i, 1);
      else if (entry.table === 'keys') lines[i] = JSON.stringify({ table: 'keys', row: entry.row.slice(0, -10) });
    }
  });
  const decoded = decodeBackup(before, keyring);
  t.deepEqual(decoded.snapshot.tables.key_acl, UNCONDITIONED);
  t.deepEqual(
    decoded.snapshot.tables.keys,
    [{ ...snapshot.tables.keys[0], ...NO_INVENTORY, ...NO_SIGNING }],
    'a disabled key stays disabled',
  );
  t.deepEqual(decoded.snapshot.tables.key_tags, []);
  t.deepEqual(decoded.snapshot.tables.aliases, []);
  t.deepEqual(decoded.snapshot.tables.key_versions, snapshot.tables.key_versions);
  t.throws(
    () =>
      decodeBackup(
        edited(before, (lines) => lines.push('{"table":"aliases","row":["x","dGFn",1,1]}')),
        keyring,
      ),
    { message: /^holds a line that is not a row$/ },
    'a table the backup does not declare holds no row',
  );
});

test('a backup written before signing keys reads back with each key an aes key, the rest as it went in', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  const before = edited(bytes, (lines) => {
    const h = JSON.parse(lines[0]!);
    h.schemaVersion = 10;
    h.columns.keys = h.columns.keys.filter((column: string) => !SIGNING.includes(column));
    beforeConditions(h, lines);
    lines[0] = JSON.stringify(h);
    for (let i = lines.length - 1; i > 0; i--) {
      const entry = JSON.parse(lines[i]!);
      if (entry.table === 'keys') lines[i] = JSON.stringify({ table: 'keys', row: entry.row.slice(0, -5) });
    }
  });
  const decoded = decodeBackup(before, keyring);
  t.deepEqual(decoded.snapshot.tables.key_acl, UNCONDITIONED);
  t.deepEqual(decoded.snapshot.tables.keys, [{ ...snapshot.tables.keys[0], ...NO_SIGNING }]);
  t.deepEqual(decoded.snapshot.tables.key_tags, snapshot.tables.key_tags);
  t.deepEqual(decoded.snapshot.tables.aliases, snapshot.tables.aliases);
});

test('a backup written before grant conditions reads back with every ACL entry unconditioned, the rest as it went in', (t) => {
  const { bytes } = encodeBackup(snapshot, keyring, new Date());
  t.deepEqual(decodeBackup(bytes, keyring).snapshot.tables.key_acl, snapshot.tables.key_acl, 'a condition is carried');
  const before = edited(bytes, (lines) => {
    const h = JSON.parse(lines[0]!);
    h.schemaVersion = 11;
    beforeConditions(h, lines);
    lines[0] = JSON.stringify(h);
  });
  const decoded = decodeBackup(before, keyring);
  t.deepEqual(decoded.snapshot.tables.key_acl, UNCONDITIONED);
  t.deepEqual(decoded.snapshot.tables.keys, snapshot.tables.keys);
  t.throws(
    () =>
      decodeBackup(
        edited(
          bytes,
          header((h) => ((h.columns as Record<string, string[]>).key_acl = ['ttag', 'principal_id', 'rights'])),
        ),
        keyring,
      ),
    { message: /^written with another table layout/ },
  );
});
