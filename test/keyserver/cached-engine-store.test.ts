import { join } from 'node:path';
import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { SRP_GROUP_2048 } from '../../src/crypto/srp/srp-group.js';
import { pad } from '../../src/crypto/srp/srp-math.js';
import { srpClientStart } from '../../src/domain/srp/srp-client.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import type { TokenRow } from '../../src/keyserver/engine/engine-model.js';
import type { EngineStore, SharedEngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { AclDeniedError, SessionExpiredError } from '../../src/keyserver/model/key-server-errors.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { CachedEngineStore } from '../../src/keyserver/store/cached-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { loginForToken } from '../_support/engine-login.js';
import { openingKeyring } from '../_support/opening-keyring.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { fillDisk, freeDisk, smallDisk, withSmallDisk } from '../_support/small-disk.js';

const keyring = new MasterKeyring([generateMasterKey()]);
const random = new CryptoRandom();
const dir = scratchDir('keygate-cache-');
const NOW = 1_700_000_000_000;

const token = (tokenHash: string, principalId = 'a1a1a1a1a1a1a1a1'): TokenRow => ({
  tokenHash,
  principalId,
  issuedAt: 0,
  expiresAt: undefined,
});

/** The store's reads of tokens, counted: what the cache did not answer itself. */
async function counted(store: SharedEngineStore): Promise<{ store: SharedEngineStore; reads: string[] }> {
  const reads: string[] = [];
  const read = await store.token.bind(store);
  store.token = (hash) => {
    reads.push(hash);
    return read(hash);
  };
  return { store, reads };
}

function engineOn(store: EngineStore): KeyServerEngine {
  return new KeyServerEngine({ store, now: () => NOW, random });
}

test('a row read once is answered from the cache until a write of its kind; a lookup that finds nothing is not kept', async (t) => {
  const { store: inner, reads } = await counted(new SqliteEngineStore(':memory:', keyring));
  const store = new CachedEngineStore(inner);
  await store.putToken(token('live'));
  for (let i = 0; i < 3; i += 1) await store.atomically(async () => t.truthy(await store.token('live')));
  t.deepEqual(reads, ['live']);
  for (let i = 0; i < 3; i += 1) t.is(await store.token('guessed'), undefined);
  t.deepEqual(reads, ['live', 'guessed', 'guessed', 'guessed'], 'a guess fills nothing');
  await store.deleteToken('live');
  t.is(await store.token('live'), undefined);
  await store.close();
});

test("a lookup by name is never kept: a login's first step reads the store for a known name as for an unknown one", async (t) => {
  const inner = new SqliteEngineStore(':memory:', keyring);
  const names: string[] = [];
  const byName = await inner.principalByName.bind(inner);
  inner.principalByName = (name) => {
    names.push(name);
    return byName(name);
  };
  const engine = engineOn(new CachedEngineStore(inner));
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  names.length = 0;
  const A = pad(SRP_GROUP_2048, srpClientStart(random).A);
  for (const user of ['alice', 'alice', 'nobody', 'nobody']) await engine.atomically(async () => await engine.login.begin(user, A));
  t.deepEqual(names, ['alice', 'alice', 'nobody', 'nobody']);
  await engine.close();
});

test('each kind keeps at most its limit of rows, the oldest going first', async (t) => {
  const { store: inner, reads } = await counted(new SqliteEngineStore(':memory:', keyring));
  const store = new CachedEngineStore(inner, { rowsPerKind: 2 });
  for (const hash of ['a', 'b', 'c']) await store.putToken(token(hash));
  for (const hash of ['a', 'b', 'c', 'c', 'b', 'a']) await store.token(hash);
  t.deepEqual(reads, ['a', 'b', 'c', 'a'], 'c and b stayed; a, the oldest, went for c');
  await store.close();
});

test('after a write in a unit, its reads go to the store: a row the unit wrote is never kept before it lands', async (t) => {
  const { store: inner, reads } = await counted(new SqliteEngineStore(':memory:', keyring));
  const store = new CachedEngineStore(inner);
  await store.putToken(token('kept'));
  await store.token('kept');
  await store.atomically(async () => {
    t.truthy(await store.token('kept'));
    await store.putToken(token('new'));
    t.truthy(await store.token('new'));
    t.truthy(await store.token('kept'));
    t.truthy(await store.token('new'));
  });
  t.deepEqual(reads, ['kept', 'new', 'kept', 'new']);
  await store.token('new');
  await store.token('new');
  t.deepEqual(reads, ['kept', 'new', 'kept', 'new', 'new'], 'kept once its unit ended');
  await store.close();
});

withSmallDisk('a unit whose commit the full disk refuses leaves nothing it wrote in the cache', async (t) => {
  const disk = smallDisk(t, '1m');
  const store = new CachedEngineStore(new SqliteEngineStore(join(disk, 'engine.db'), keyring));
  fillDisk(disk);
  await t.throwsAsync(
    () =>
      store.atomically(async () => {
        await store.putToken(token('never'));
        t.truthy(await store.token('never'), 'the unit sees its own write');
      }),
    { any: true },
  );
  freeDisk(disk);
  t.is(await store.token('never'), undefined, 'the refused token opens nothing');
  await store.close();
});

test("another connection's commit to the file is seen by the next unit and by the next read outside one", async (t) => {
  const path = join(dir, 'shared.db');
  const store = new CachedEngineStore(new SqliteEngineStore(path, keyring));
  const other = new SqliteEngineStore(path, keyring);
  await store.putToken(token('first'));
  await store.putToken(token('second'));
  await store.atomically(async () => t.truthy(await store.token('first')));
  t.truthy(await store.token('second'));
  await other.deleteToken('first');
  await store.atomically(async () => t.is(await store.token('first'), undefined));
  await other.deleteToken('second');
  t.is(await store.token('second'), undefined);
  await other.close();
  await store.close();
});

test('a session another process ends, a principal it disables, a grant it revokes: the next operation is refused', async (t) => {
  const path = join(dir, 'engines.db');
  const served = engineOn(new CachedEngineStore(new SqliteEngineStore(path, keyring)));
  // Another process on the same file: its own connection and its own cache.
  const elsewhere = engineOn(new CachedEngineStore(new SqliteEngineStore(path, keyring)));
  await served.createPrincipal({ name: 'admin', kind: 'user', password: 'admin-pw', roles: ['admin'] });
  for (const name of ['alice', 'bob', 'carol']) await served.createPrincipal({ name, kind: 'user', password: `${name}-pw` });
  const alice = await loginForToken(served, 'alice', 'alice-pw');
  const bob = await loginForToken(served, 'bob', 'bob-pw');
  const carol = await loginForToken(served, 'carol', 'carol-pw');
  const admin = await loginForToken(elsewhere, 'admin', 'admin-pw');
  const { ttag } = await runOperation(served, 'generateKey', alice, { keyLen: 16 });
  await runOperation(served, 'grant', alice, { ttag, principal: 'bob', rights: ['export'] });
  for (let i = 0; i < 2; i += 1) {
    await runOperation(served, 'exportKey', bob, { ttag });
    t.is((await runOperation(served, 'whoami', carol, {})).user, 'carol');
  }

  await runOperation(elsewhere, 'revoke', alice, { ttag, principal: 'bob' });
  await t.throwsAsync(runOperation(served, 'exportKey', bob, { ttag }), { instanceOf: AclDeniedError });
  await runOperation(elsewhere, 'revokeToken', alice, {});
  await t.throwsAsync(runOperation(served, 'whoami', alice, {}), { instanceOf: SessionExpiredError });
  await runOperation(elsewhere, 'updatePrincipal', admin, { name: 'carol', changes: { disabled: true } });
  await t.throwsAsync(runOperation(served, 'whoami', carol, {}), { instanceOf: SessionExpiredError });
  t.is((await runOperation(served, 'whoami', bob, {})).user, 'bob', 'what was not changed still answers');
  await elsewhere.close();
  await served.close();
});

test('a cached key row keeps its material sealed: an ACL check opens no key, an export opens the one it answers', async (t) => {
  const { keyring: sealedWith, opened } = openingKeyring();
  const engine = engineOn(new CachedEngineStore(new SqliteEngineStore(join(dir, 'sealed.db'), sealedWith)));
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  await engine.createPrincipal({ name: 'bob', kind: 'user', password: 'bob-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const { ttag } = await runOperation(engine, 'generateKey', alice, { keyLen: 16 });
  await runOperation(engine, 'grant', alice, { ttag, principal: 'bob', rights: ['read'] });
  opened.length = 0;
  for (let i = 0; i < 2; i += 1) {
    await runOperation(engine, 'readAcl', alice, { ttag });
    await runOperation(engine, 'accessRights', alice, { ttag });
    await runOperation(engine, 'readKey', alice, { ttag });
  }
  t.deepEqual(opened, []);
  const first = await runOperation(engine, 'exportKey', alice, { ttag });
  const second = await runOperation(engine, 'exportKey', alice, { ttag });
  t.deepEqual(opened, ['keys', 'keys'], 'each export opens the material it answers, from the sealed row');
  t.deepEqual(first.key, second.key, 'the same key bytes both times');
  await engine.close();
});
