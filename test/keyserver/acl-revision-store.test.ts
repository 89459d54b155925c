import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { ENGINE_SCHEMA_VERSION } from '../../src/keyserver/store/sqlite-engine-schema.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { loginForToken } from '../_support/engine-login.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/** Issue 15 §2: each key's ACL revision is kept by the store with the ACL, and survives a restart. */
const keyring = new MasterKeyring([generateMasterKey()]);
const dir = scratchDir('keygate-acl-revision-');
const random = new CryptoRandom();
const clock = new ManualClock(1_700_000_000_000);

const engineOn = (store: EngineStore) => new KeyServerEngine({ store, now: () => clock.now(), random });

/** alice owns a key and has granted bob `read` on it. */
async function populate(engine: KeyServerEngine) {
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  await engine.createPrincipal({ name: 'bob', kind: 'user', password: 'bob-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const { ttag } = await engine.keys.generate(alice, { keyLen: 32 });
  return { alice, ttag };
}

for (const [name, open] of [
  ['memory', () => new MemoryEngineStore()],
  ['sqlite', () => new SqliteEngineStore(':memory:', keyring)],
] as const) {
  test(`${name}: grants and revokes count up the key's revision; other keys and other writes leave it alone`, async (t) => {
    const engine = engineOn(open());
    const { alice, ttag } = await populate(engine);
    const other = (await engine.keys.generate(alice, { keyLen: 16 })).ttag;
    t.is((await engine.keys.readAcl(alice, ttag)).revision, 0);
    t.is((await engine.keys.grant(alice, ttag, 'bob', ['read'])).revision, 1);
    t.is((await engine.keys.revoke(alice, ttag, 'bob')).revision, 2);
    await engine.keys.expire(alice, ttag);
    t.is((await engine.keys.readAcl(alice, ttag)).revision, 2);
    t.is((await engine.keys.readAcl(alice, other)).revision, 0);
    await engine.close();
  });
}

test('a reopened file keeps the revision with the ACL', async (t) => {
  const path = join(dir, 'reopen.db');
  const first = engineOn(new SqliteEngineStore(path, keyring));
  const { alice, ttag } = await populate(first);
  await first.keys.grant(alice, ttag, 'bob', ['read']);
  await first.keys.grant(alice, ttag, 'bob', ['read', 'mac']);
  await first.close();
  const second = engineOn(new SqliteEngineStore(path, keyring));
  t.like(await second.keys.readAcl(alice, ttag), { revision: 2, entries: [{ principal: { user: 'bob' }, rights: ['read', 'mac'] }] });
  t.is((await second.keys.revoke(alice, ttag, 'bob')).revision, 3);
  await second.close();
});

test('a file at schema version 5 (no revisions) moves to the current version: keys and ACLs kept, revisions start at 0', async (t) => {
  const path = join(dir, 'version-5.db');
  const first = engineOn(new SqliteEngineStore(path, keyring));
  const { alice, ttag } = await populate(first);
  await first.keys.grant(alice, ttag, 'bob', ['read', 'export']);
  const material = (await first.keys.exportKey(alice, ttag)).key;
  await first.close();
  // The file as version 5 left it: the same rows, without the column (nor what later versions added).
  const db = new Database(path);
  db.exec(`DROP TABLE aliases; DROP TABLE key_tags; DROP INDEX keys_by_created; DROP INDEX keys_by_owner; DROP INDEX keys_by_label;
    DROP INDEX keys_pending_deletion; DROP INDEX keys_deletion_unrecorded; DROP INDEX key_acl_by_principal`);
  for (const column of ['key_type', 'key_alg', 'exportable', 'published', 'jwt_max_lifetime'])
    db.exec(`ALTER TABLE keys DROP COLUMN ${column}`);
  for (const column of ['deletion_at', 'deleted_at', 'deletion_record', 'last_used_at', 'last_used_op'])
    db.exec(`ALTER TABLE keys DROP COLUMN ${column}`);
  db.exec('DROP TABLE idempotency; DROP INDEX keys_with_rotation; ALTER TABLE keys DROP COLUMN rotation_period');
  db.exec('DROP TABLE key_versions; ALTER TABLE keys DROP COLUMN min_version');
  db.exec('ALTER TABLE keys DROP COLUMN acl_revision; ALTER TABLE keys DROP COLUMN disabled');
  db.exec('ALTER TABLE key_acl DROP COLUMN conditions');
  db.pragma('user_version = 5');
  db.close();

  const second = engineOn(new SqliteEngineStore(path, keyring));
  t.like(await second.keys.readAcl(alice, ttag), { revision: 0, entries: [{ principal: { user: 'bob' }, rights: ['read', 'export'] }] });
  t.is((await second.keys.readAcl(alice, ttag)).entries[0]?.conditions, undefined, 'an entry of before grant conditions has none');
  t.deepEqual((await second.keys.exportKey(alice, ttag)).key, material, 'the sealed key material still opens');
  t.is((await second.keys.grant(alice, ttag, 'bob', ['read'])).revision, 1);
  await second.close();
  const check = new Database(path, { readonly: true });
  t.is(check.pragma('user_version', { simple: true }), ENGINE_SCHEMA_VERSION);
  t.deepEqual(check.prepare('SELECT acl_revision FROM keys WHERE ttag = ?').get(ttag), { acl_revision: 1 });
  check.close();
});
