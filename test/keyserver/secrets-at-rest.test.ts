import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { ENGINE_SCHEMA_VERSION, migrateEngineSchema } from '../../src/keyserver/store/sqlite-engine-schema.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { loginForToken } from '../_support/engine-login.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const dir = scratchDir('keygate-at-rest-');
const random = new CryptoRandom();
const clock = new ManualClock(1_700_000_000_000);

/** The raw bytes an attacker with a copy of the directory holds: the file and its WAL. */
function rawFiles(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)));
}

test('a copy of the data file (and its WAL) holds neither an exported key nor a verifier', async (t) => {
  const path = join(dir, 'copy.db');
  const keyring = new MasterKeyring([generateMasterKey()]);
  const store = new SqliteEngineStore(path, keyring);
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random });
  t.teardown(() => engine.close());
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const { ttag } = await engine.keys.generate(alice, { keyLen: 32 });
  const key = (await engine.keys.exportKey(alice, ttag)).key;
  const verifier = (await store.principalByName('alice'))!.srp!.verifier;
  const raw = rawFiles(path);
  t.true(raw.length > 0);
  t.is(raw.indexOf(key), -1, 'the key bytes are not in the file');
  t.is(raw.indexOf(verifier), -1, 'the verifier is not in the file');
  t.is(raw.indexOf(verifier.subarray(0, 16)), -1, 'nor a fragment of it');
});

test('a file sealed under one master key does not open under another', async (t) => {
  const path = join(dir, 'other-key.db');
  const first = new SqliteEngineStore(path, new MasterKeyring([generateMasterKey()]));
  await new KeyServerEngine({ store: first, now: () => clock.now(), random }).createPrincipal({
    name: 'alice',
    kind: 'user',
    password: 'pw',
  });
  await first.close();
  await t.throwsAsync(async () => new SqliteEngineStore(path, new MasterKeyring([generateMasterKey()])), {
    message: /master key [0-9a-f]{16}, which was not given/,
  });
});

test('plaintext rows of a version-3 file are sealed when it opens, and read back the same', async (t) => {
  const path = join(dir, 'version-3.db');
  const material = Buffer.alloc(32, 0x5a);
  const verifier = Buffer.alloc(256, 0xa5);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  migrateEngineSchema(db, 3);
  db.prepare(
    `INSERT INTO principals (name, principal_id, kind, system_id, roles, srp_salt, srp_verifier, created_at) VALUES ('alice', 'a1a1a1a1a1a1a1a1', 'user', 1001, '["user"]', ?, ?, 0)`,
  ).run(Buffer.alloc(16, 1), verifier);
  db.prepare(`INSERT INTO keys (ttag, nid, material, owner, created_at) VALUES ('dGFn', 0, ?, 'a1a1a1a1a1a1a1a1', 0)`).run(material);
  db.prepare(`INSERT INTO settings (name, value) VALUES ('decoySecret', 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=')`).run();
  db.close();
  t.not(readFileSync(path).indexOf(material), -1, 'the old file holds the key in clear');

  const store = new SqliteEngineStore(path, new MasterKeyring([generateMasterKey()]));
  t.teardown(() => store.close());
  t.deepEqual((await store.key('dGFn'))?.material, material);
  t.deepEqual((await store.principalByName('alice'))?.srp?.verifier, verifier);
  t.is(await store.setting('decoySecret'), 'c2VjcmV0LXNlY3JldC1zZWNyZXQ=');
  const raw = rawFiles(path);
  t.is(raw.indexOf(material), -1);
  t.is(raw.indexOf(verifier), -1);
  t.is(raw.indexOf('c2VjcmV0LXNlY3JldC1zZWNyZXQ='), -1);
  const check = new Database(path, { readonly: true });
  t.is(check.pragma('user_version', { simple: true }), ENGINE_SCHEMA_VERSION);
  check.close();
});

test('rotation rewraps every row under the new key; the old key is then no longer needed', async (t) => {
  const path = join(dir, 'rotate.db');
  const old = generateMasterKey();
  const fresh = generateMasterKey();
  const first = new SqliteEngineStore(path, new MasterKeyring([old]));
  const engine = new KeyServerEngine({ store: first, now: () => clock.now(), random });
  await engine.prepare();
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const { ttag } = await engine.keys.generate(alice, { keyLen: 24 });
  const key = (await engine.keys.exportKey(alice, ttag)).key;
  await engine.close();

  const rotating = new SqliteEngineStore(path, new MasterKeyring([fresh, old]));
  t.deepEqual(await rotating.keyIdsInUse(), [old.id]);
  t.true((await rotating.rewrap()) >= 3);
  t.deepEqual(await rotating.keyIdsInUse(), [fresh.id]);
  await rotating.close();

  await t.throwsAsync(async () => new SqliteEngineStore(path, new MasterKeyring([old])), { message: new RegExp(fresh.id) });
  const after = new KeyServerEngine({ store: new SqliteEngineStore(path, new MasterKeyring([fresh])), now: () => clock.now(), random });
  t.teardown(() => after.close());
  t.deepEqual((await after.keys.exportKey(await loginForToken(after, 'alice', 'alice-pw'), ttag)).key, key);
});

test('a sealed value moved to another row does not open: the key it was moved to refuses its use', async (t) => {
  const path = join(dir, 'moved.db');
  const store = new SqliteEngineStore(path, new MasterKeyring([generateMasterKey()]));
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random });
  t.teardown(() => engine.close());
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const one = (await engine.keys.generate(alice, { keyLen: 24 })).ttag;
  const two = (await engine.keys.generate(alice, { keyLen: 24 })).ttag;
  const db = new Database(path);
  db.prepare('UPDATE keys SET material = (SELECT material FROM keys WHERE ttag = ?) WHERE ttag = ?').run(one, two);
  db.close();
  // The material stays sealed until it is used: the key's use is what refuses it.
  await t.throwsAsync(async () => await engine.keys.exportKey(alice, two), { message: /does not open/ });
  await t.throwsAsync(async () => (await store.key(two))!.material, { message: /does not open/ });
  t.is((await engine.keys.exportKey(alice, one)).key.length, 24, 'the row it came from still opens');
});
