import { statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { ENGINE_SCHEMA_VERSION, migrateEngineSchema } from '../../src/keyserver/store/sqlite-engine-schema.js';
import { ENGINE_PAGE_CACHE_KIB, SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { loginForToken } from '../_support/engine-login.js';
import { openingKeyring } from '../_support/opening-keyring.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { fillDisk, freeDisk, smallDisk, withSmallDisk } from '../_support/small-disk.js';

const keyring = new MasterKeyring([generateMasterKey()]);

const dir = scratchDir('keygate-store-');
const random = new CryptoRandom();

function engineOn(path: string, clock: ManualClock, tokenTtlMs?: number) {
  return new KeyServerEngine({ store: new SqliteEngineStore(path, keyring), now: () => clock.now(), random, tokenTtlMs });
}

test("bounds its page cache to SQLite's default 2,000 KiB, not the 16,000 KiB better-sqlite3 builds in", async (t) => {
  const store = new SqliteEngineStore(join(dir, 'page-cache.db'), keyring);
  t.teardown(() => store.close());
  t.is(store.pageCacheKiB(), ENGINE_PAGE_CACHE_KIB);
  t.is(ENGINE_PAGE_CACHE_KIB, 2_000);
});

test('a reopened file keeps principals, keys, ACLs, live tokens and the engine settings', async (t) => {
  const path = join(dir, 'restart.db');
  const clock = new ManualClock(1_700_000_000_000);
  const first = engineOn(path, clock, 60_000);
  await first.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const bobIdentity = await first.createPrincipal({ name: 'bob', kind: 'user', password: 'bob-pw' });
  const alice = await loginForToken(first, 'alice', 'alice-pw');
  const { ttag } = await first.keys.generate(alice, { keyLen: 24 });
  await first.keys.grant(alice, ttag, 'bob', ['read', 'export']);
  const decoy = await first.login.begin('nobody', Buffer.from([2]));
  const key = (await first.keys.exportKey(alice, ttag)).key;
  await first.close();

  const second = engineOn(path, clock, 60_000);
  t.true(await second.hasPrincipal('bob'));
  t.deepEqual((await second.keys.exportKey(alice, ttag)).key, key);
  t.deepEqual((await second.keys.readAcl(alice, ttag)).entries, [{ principal: bobIdentity, rights: ['read', 'export'] }]);
  t.deepEqual((await second.login.begin('nobody', Buffer.from([2]))).salt, decoy.salt, 'the unknown-user decoy stays the same');
  t.true((await second.createPrincipal({ name: 'carol', kind: 'user' })).systemId > bobIdentity.systemId);
  clock.advance(60_000);
  await t.throwsAsync(async () => await second.whoami(alice), { message: /expired/ });
  await second.close();
});

test('sweeping drops only the tokens past their lifetime', async (t) => {
  const clock = new ManualClock(1_700_000_000_000);
  const engine = engineOn(join(dir, 'sweep.db'), clock, 10_000);
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  await loginForToken(engine, 'alice', 'alice-pw');
  clock.advance(5_000);
  const fresh = await loginForToken(engine, 'alice', 'alice-pw');
  clock.advance(5_000);
  t.is(await engine.sweepExpiredTokens(), 1);
  t.is((await engine.whoami(fresh)).user, 'alice');
  await engine.close();
});

test('a new file is at the current schema version, in WAL mode, readable by its owner only', async (t) => {
  const path = join(dir, 'nested', 'fresh.db');
  await new SqliteEngineStore(path, keyring).close();
  const db = new Database(path, { readonly: true });
  t.is(db.pragma('user_version', { simple: true }), ENGINE_SCHEMA_VERSION);
  t.is(db.pragma('journal_mode', { simple: true }), 'wal');
  db.close();
  t.is(statSync(path).mode & 0o777, 0o600);
});

test('refuses a file written by a newer schema version', async (t) => {
  const path = join(dir, 'newer.db');
  const db = new Database(path);
  db.pragma(`user_version = ${ENGINE_SCHEMA_VERSION + 1}`);
  db.close();
  await t.throwsAsync(async () => new SqliteEngineStore(path, keyring), { message: /schema version/ });
});

test('a reopened file keeps group memberships and role definitions', async (t) => {
  const path = join(dir, 'directory.db');
  const clock = new ManualClock(1_700_000_000_000);
  const first = engineOn(path, clock);
  await first.createPrincipal({ name: 'admin', kind: 'user', password: 'admin-pw', roles: ['admin'] });
  await first.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  await first.createPrincipal({ name: 'readers', kind: 'group', roles: ['auditor'] });
  const admin = await loginForToken(first, 'admin', 'admin-pw');
  await first.groups.addMember(admin, 'readers', 'alice');
  await first.roles.put(admin, 'labeller', ['keys.read']);
  await first.close();

  const second = engineOn(path, clock);
  const again = await loginForToken(second, 'admin', 'admin-pw');
  t.deepEqual(
    (await second.groups.members(again, 'readers')).items.map((p) => p.name),
    ['alice'],
  );
  t.deepEqual(await second.roles.read(again, 'labeller'), { name: 'labeller', operations: ['keys.read'] });
  t.true((await second.roles.held(await loginForToken(second, 'alice', 'alice-pw'))).operations.includes('audit.read'));
  await second.close();
});

test('a file at schema version 2 moves to the current version and keeps what it held', async (t) => {
  const path = join(dir, 'version-2.db');
  const db = new Database(path);
  migrateEngineSchema(db, 2);
  const insert = db.prepare('INSERT INTO principals (name, principal_id, kind, system_id, roles, created_at) VALUES (?, ?, ?, ?, ?, 0)');
  insert.run('alice', 'a1a1a1a1a1a1a1a1', 'user', 1001, '["user"]');
  insert.run('team', 'b2b2b2b2b2b2b2b2', 'group', 1002, '[]');
  db.prepare('INSERT INTO tokens (token_hash, principal_id, issued_at) VALUES (?, ?, 0)').run('alice-token', 'a1a1a1a1a1a1a1a1');
  db.close();

  const store = new SqliteEngineStore(path, keyring);
  t.like(await store.principalByName('alice'), { principalId: 'a1a1a1a1a1a1a1a1', roles: ['user'] });
  t.is((await store.token('alice-token'))?.principalId, 'a1a1a1a1a1a1a1a1');
  await store.putMembership('b2b2b2b2b2b2b2b2', 'a1a1a1a1a1a1a1a1');
  await store.putRole({ name: 'labeller', operations: ['keys.read'] });
  t.deepEqual(await store.groupIdsOf('a1a1a1a1a1a1a1a1'), ['b2b2b2b2b2b2b2b2']);
  await store.deletePrincipal('a1a1a1a1a1a1a1a1');
  t.is(await store.token('alice-token'), undefined, 'the token went with its principal');
  t.deepEqual(await store.memberIdsOf('b2b2b2b2b2b2b2b2'), []);
  await store.close();
  const check = new Database(path, { readonly: true });
  t.is(check.pragma('user_version', { simple: true }), ENGINE_SCHEMA_VERSION);
  check.close();
});

test('an operation on the file is one transaction: another connection sees its writes only once it ends, and it reads one state', async (t) => {
  const path = join(dir, 'unit.db');
  const store = new SqliteEngineStore(path, keyring);
  const other = new SqliteEngineStore(path, keyring);
  const row = (tokenHash: string) => ({ tokenHash, principalId: 'a1a1a1a1a1a1a1a1', issuedAt: 0, expiresAt: undefined });
  await store.atomically(async () => {
    await store.putToken(row('first'));
    await store.putToken(row('second'));
    t.is(await other.token('first'), undefined, 'not seen before the operation ends');
  });
  t.truthy(await other.token('first'));
  t.truthy(await other.token('second'));
  await store.atomically(async () => {
    t.truthy(await store.token('first'));
    await other.deleteToken('first');
    t.truthy(await store.token('first'), 'the state the operation began reading');
  });
  t.is(await store.token('first'), undefined);
  await other.close();
  await store.close();
});

test('each operation run through the protocol table is one unit of the engine store, refused or not', async (t) => {
  const store = new SqliteEngineStore(':memory:', keyring);
  const units: string[] = [];
  const atomically = await store.atomically.bind(store);
  store.atomically = (operation) => {
    units.push('unit');
    return atomically(operation);
  };
  const engine = new KeyServerEngine({ store, now: () => 1_700_000_000_000, random });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  units.length = 0;
  const { ttag } = await runOperation(engine, 'generateKey', alice, { keyLen: 16 });
  await t.throwsAsync(runOperation(engine, 'exportKey', alice, { ttag: 'f'.repeat(ttag.length) }));
  t.deepEqual(units, ['unit', 'unit']);
  await engine.close();
});

test("an operation's token check leaves the principal's SRP verifier sealed; a password login opens it", async (t) => {
  const { keyring: sealedWith, opened } = openingKeyring();
  const engine = new KeyServerEngine({
    store: new SqliteEngineStore(join(dir, 'verifier.db'), sealedWith),
    now: () => 1_700_000_000_000,
    random,
  });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  await engine.createPrincipal({ name: 'bob', kind: 'user', password: 'bob-pw' });
  opened.length = 0;
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  t.deepEqual(opened, ['principals'], 'the login reads the verifier once');
  opened.length = 0;
  const { ttag } = await engine.keys.generate(alice, { keyLen: 16 });
  t.is((await engine.whoami(alice)).user, 'alice');
  await engine.keys.grant(alice, ttag, 'bob', ['read']);
  await engine.keys.exportKey(alice, ttag);
  t.false(opened.includes('principals'), `opened: ${opened.join(', ')}`);
  t.true(opened.includes('keys'), 'the export opens the key it answers');
  await engine.close();
});

test("a key's material stays sealed until a use reads it: an ACL check and a key's view open no key", async (t) => {
  const { keyring: sealedWith, opened } = openingKeyring();
  const engine = new KeyServerEngine({
    store: new SqliteEngineStore(join(dir, 'material.db'), sealedWith),
    now: () => 1_700_000_000_000,
    random,
  });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-pw' });
  const alice = await loginForToken(engine, 'alice', 'alice-pw');
  const { ttag } = await runOperation(engine, 'generateKey', alice, { keyLen: 16 });
  opened.length = 0;
  await runOperation(engine, 'readAcl', alice, { ttag });
  await runOperation(engine, 'accessRights', alice, { ttag });
  await runOperation(engine, 'readKey', alice, { ttag });
  t.deepEqual(opened, []);
  await runOperation(engine, 'exportKey', alice, { ttag });
  t.deepEqual(opened, ['keys']);
  await engine.close();
});

test('the certificate operations write after their path check as one unit of the store: an enrolment, a session delegated by certificate, a certificate login', async (t) => {
  const store = new SqliteEngineStore(':memory:', keyring);
  let depth = 0;
  const outside: string[] = [];
  const atomically = store.atomically.bind(store);
  store.atomically = async (operation) => {
    depth++;
    try {
      return await atomically(operation);
    } finally {
      depth--;
    }
  };
  const putToken = store.putToken.bind(store);
  store.putToken = async (row) => {
    if (depth === 0) outside.push('putToken');
    await putToken(row);
  };
  const putCertificate = store.putCertificate.bind(store);
  store.putCertificate = async (row) => {
    if (depth === 0) outside.push('putCertificate');
    await putCertificate(row);
  };
  const engine = new KeyServerEngine({ store, now: () => Date.now(), random });
  await engine.createPrincipal({ name: 'admin', kind: 'user', roles: ['admin'] });
  await engine.createPrincipal({ name: 'carol', kind: 'user' });
  await engine.createPrincipal({ name: 'svc', kind: 'service', roles: ['service'] });
  await store.putPrincipal({ ...(await store.principalByName('svc'))!, delegates: ['carol'] });
  const admin = (await engine.issueToken((await store.principalByName('admin'))!)).token;
  const service = (await engine.issueToken((await store.principalByName('svc'))!)).token;
  const authority = await createAuthority('unit CA');
  const leaf = await createLeaf(authority, 'carol', { keyType: 'EC' });
  await engine.identity.addAuthority(admin, authority.pem);
  outside.length = 0;

  await runOperation(engine, 'enrollCertificate', admin, { principal: 'carol', pem: leaf.pem });
  await runOperation(engine, 'mintDelegated', service, { certificate: leaf.pem });
  const { challengeId, challenge } = await engine.identity.certificateChallenge(leaf.pem);
  const login = await engine.identity.certificateLogin(challengeId, Buffer.from(signChallenge(leaf, challenge), 'base64url'));
  t.is(login.identity.user, 'carol');
  t.is((await store.delegatedTokens()).length, 1);
  t.deepEqual(outside, [], 'every write ran inside a unit of the store');
  await engine.close();
});

withSmallDisk('a commit the full disk refuses is thrown: nothing of the operation lands, and the store stays usable', async (t) => {
  const dir = smallDisk(t, '1m');
  const path = join(dir, 'engine.db');
  const store = new SqliteEngineStore(path, keyring);
  const row = (tokenHash: string) => ({ tokenHash, principalId: 'a1a1a1a1a1a1a1a1', issuedAt: 0, expiresAt: undefined });
  fillDisk(dir);
  let written = 0;
  const refused = await t.throwsAsync(
    () =>
      store.atomically(async () => {
        await store.putToken(row('first'));
        await store.putToken(row('second'));
        written = 2;
      }),
    { any: true },
  );
  t.is(written, 2, 'the writes were taken; the commit was refused');
  t.regex(String((refused as { code?: string }).code), /^SQLITE_(FULL|IOERR)/);
  freeDisk(dir);
  t.is(await store.token('first'), undefined);
  t.is(await store.token('second'), undefined);
  await store.atomically(async () => await store.putToken(row('after')));
  // Another connection sees what was committed: the next operation was not left inside the refused one.
  const other = new SqliteEngineStore(path, keyring);
  t.truthy(await other.token('after'));
  t.is(await other.token('first'), undefined);
  await other.close();
  await store.close();
});
