import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { ENGINE_SCHEMA_VERSION, migrateEngineSchema } from '../../src/keyserver/store/sqlite-engine-schema.js';
import { sealContext } from '../../src/keyserver/store/sqlite-engine-sealing.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/** Key versions in the SQLite file: the migration from the schema before them, and master-key rotation. */
const dir = scratchDir('keygate-versions-');

test('a file at schema version 6 moves to key versions: each key is version 1 with the same material, minimum version 1', async (t) => {
  const keyring = new MasterKeyring([generateMasterKey()]);
  const path = join(dir, 'version-6.db');
  const db = new Database(path);
  migrateEngineSchema(db, 6);
  const material = Buffer.alloc(24, 5);
  const { keyId, sealed } = keyring.seal(material, sealContext('keys', 'b2xk'));
  db.prepare(
    `INSERT INTO keys (ttag, nid, material, material_key_id, owner, created_at, expired, acl_revision) VALUES ('b2xk', 425, ?, ?, 'aaaaaaaaaaaaaaaa', 1, 0, 2)`,
  ).run(sealed, keyId);
  db.close();

  const store = new SqliteEngineStore(path, keyring);
  t.teardown(() => store.close());
  const stored = (await store.key('b2xk'))!;
  t.true(stored.material.equals(material));
  t.is(stored.minVersion, 1);
  t.deepEqual(stored.laterVersions, []);
  t.is(stored.aclRevision, 2);
  t.false(stored.disabled, 'a key stored before key states is active');
  await store.putKeyVersion('b2xk', { version: 2, material: Buffer.alloc(24, 6), createdAt: 2 });
  t.true((await store.key('b2xk'))!.laterVersions[0]!.material.equals(Buffer.alloc(24, 6)));
  const check = new Database(path, { readonly: true });
  t.teardown(() => check.close());
  t.is(check.pragma('user_version', { simple: true }), ENGINE_SCHEMA_VERSION);
});

test('a master-key rotation rewraps every key version; the old master key then opens none, and a version moved to another key does not open', async (t) => {
  const path = join(dir, 'rotation.db');
  const oldKey = generateMasterKey();
  const first = new SqliteEngineStore(path, new MasterKeyring([oldKey]));
  await first.putKey({
    ttag: 'cm90',
    nid: 427,
    material: Buffer.alloc(32, 1),
    laterVersions: [],
    tags: {},
    minVersion: 1,
    owner: 'aaaaaaaaaaaaaaaa',
    acl: new Map(),
    aclRevision: 0,
    createdAt: 1,
    expired: false,
    disabled: false,
  });
  await first.putKeyVersion('cm90', { version: 2, material: Buffer.alloc(32, 2), createdAt: 2 });
  await first.putKeyVersion('cm90', { version: 3, material: Buffer.alloc(32, 3), createdAt: 3 });
  await first.close();

  const newKey = generateMasterKey();
  const rotating = new SqliteEngineStore(path, new MasterKeyring([newKey, oldKey]));
  t.is(rotating.rewrap(), 3);
  await rotating.close();

  const after = new SqliteEngineStore(path, new MasterKeyring([newKey]));
  t.teardown(() => after.close());
  t.deepEqual(await after.keyIdsInUse(), [newKey.id]);
  const stored = (await after.key('cm90'))!;
  t.true(stored.material.equals(Buffer.alloc(32, 1)));
  t.deepEqual(
    stored.laterVersions.map((v) => v.material[0]),
    [2, 3],
  );

  // Version 3's sealed material copied over version 2's row: bound to its own ttag and version, it does not open there.
  const db = new Database(path);
  db.prepare(`UPDATE key_versions SET material = (SELECT material FROM key_versions WHERE version = 3) WHERE version = 2`).run();
  db.close();
  const moved = new SqliteEngineStore(path, new MasterKeyring([newKey]));
  t.teardown(() => moved.close());
  const row = (await moved.key('cm90'))!;
  t.throws(() => row.laterVersions[0]!.material);
  t.true(row.laterVersions[1]!.material.equals(Buffer.alloc(32, 3)));
});
