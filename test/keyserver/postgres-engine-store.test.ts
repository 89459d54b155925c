import test from 'ava';
import pg from 'pg';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import type { KeyRow } from '../../src/keyserver/engine/engine-model.js';
import { migratePostgresEngine, POSTGRES_ENGINE_SCHEMA_VERSION } from '../../src/keyserver/store/postgres-engine-schema.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { sealContext } from '../../src/keyserver/store/sqlite-engine-sealing.js';
import { contextsLeftBy, useThenClose } from '../_support/async-contexts.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';

/** What the PostgreSQL store adds to the engine-store contract (engine-store.test.ts runs that). */
const postgres = startTestPostgres();
const maybe = testUnless(postgres.reason);
test.after.always(() => postgres.stop());

const keyring = new MasterKeyring([generateMasterKey()]);
let schemas = 0;

async function open(t: { teardown(fn: () => unknown): void }, options: { schema?: string; keys?: MasterKeyring } = {}) {
  const store = await PostgresEngineStore.open({
    url: postgres.url!,
    keyring: options.keys ?? keyring,
    schema: options.schema ?? `store_${++schemas}`,
  });
  t.teardown(() => store.close());
  return store;
}

const key = (ttag: string, material: Buffer): KeyRow => ({
  ttag,
  nid: 427,
  material,
  owner: 'aaaaaaaaaaaaaaaa',
  acl: new Map([['bbbbbbbbbbbbbbbb', ['read'] as const]]),
  aclRevision: 3,
  laterVersions: [],
  tags: {},
  minVersion: 1,
  createdAt: 1_700_000_000_000,
  expired: false,
  disabled: false,
});

maybe(
  'a snapshot restores into an empty store as it was, sealed values still opening, tokens left out; a store not empty is refused',
  async (t) => {
    const source = await open(t);
    await source.putPrincipal({
      name: 'alice',
      kind: 'user',
      systemId: await source.nextSystemId(),
      principalId: 'aaaaaaaaaaaaaaaa',
      disabled: false,
      roles: ['user'],
      createdAt: 1,
      srp: { salt: Buffer.alloc(16, 1), verifier: Buffer.alloc(256, 2) },
    });
    await source.putKey(key('k1', Buffer.alloc(32, 9)));
    await source.putSetting('decoy', 'a secret value');
    await source.putToken({ tokenHash: 'h1', principalId: 'aaaaaaaaaaaaaaaa', issuedAt: 1, expiresAt: undefined });
    const snapshot = await source.snapshot();
    t.is(snapshot.tables.principals.length, 1);
    t.deepEqual(snapshot.tables.counters, [{ name: 'systemId', value: 1001 }]);
    t.false(JSON.stringify(snapshot).includes('a secret value'));

    const target = await open(t);
    await target.restore(snapshot);
    t.deepEqual(await target.snapshot(), snapshot);
    t.deepEqual((await target.key('k1'))!.material, Buffer.alloc(32, 9));
    t.deepEqual((await target.principalByName('alice'))!.srp!.verifier, Buffer.alloc(256, 2));
    t.is(await target.setting('decoy'), 'a secret value');
    t.is(await target.token('h1'), undefined, 'tokens are not part of a snapshot');
    t.is(await target.nextSystemId(), 1002);

    const busy = await open(t);
    await busy.putSetting('other', 'x');
    await t.throwsAsync(busy.restore(snapshot), { message: /not empty/ });
    t.is(await busy.principalByName('alice'), undefined, 'nothing was written');
  },
);

maybe('a store sealed under a master key not given is refused at open, naming the key', async (t) => {
  const schema = `store_${++schemas}`;
  const first = await open(t, { schema });
  await first.putKey(key('k1', Buffer.alloc(32, 1)));
  const other = new MasterKeyring([generateMasterKey()]);
  await t.throwsAsync(PostgresEngineStore.open({ url: postgres.url!, keyring: other, schema }), {
    message: `PostgreSQL ${new URL(postgres.url!).host}/postgres: sealed under master key ${keyring.current.id}, which was not given`,
  });
});

maybe('stores opened at once on a new schema create it once; a schema of a newer keygate is refused', async (t) => {
  const schema = `store_${++schemas}`;
  const stores = await Promise.all([1, 2, 3].map(() => open(t, { schema })));
  t.is(stores.length, 3);
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  t.teardown(() => client.end());
  await client.query(`UPDATE ${schema}.keygate_engine_schema_version SET version = version + 1`);
  const known = POSTGRES_ENGINE_SCHEMA_VERSION;
  await t.throwsAsync(open(t, { schema }), { message: new RegExp(`schema version ${known + 1}; this keygate knows up to ${known}`) });
});

maybe('units through two stores on one schema that change one row at once all land: a failed one runs again', async (t) => {
  const schema = `store_${++schemas}`;
  const [one, two] = [await open(t, { schema }), await open(t, { schema })];
  await one.putKey({ ...key('k1', Buffer.alloc(32, 1)), acl: new Map() });
  const grant = (store: PostgresEngineStore, principal: string) =>
    store.atomically(async () => {
      const row = (await store.key('k1'))!;
      await store.putKey({
        ...row,
        material: row.material,
        acl: new Map([...row.acl, [principal, ['read']]]),
        aclRevision: row.aclRevision + 1,
      });
    });
  const principals = Array.from({ length: 12 }, (_, index) => `p${String(index).padStart(2, '0')}`);
  await Promise.all(principals.map((principal, index) => grant(index % 2 === 0 ? one : two, principal)));
  const row = (await two.key('k1'))!;
  t.deepEqual([...row.acl.keys()].sort(), principals);
  t.is(row.aclRevision, 3 + principals.length);
});

maybe('within one unit, a row read with the token is read again after the unit writes it', async (t) => {
  const store = await open(t);
  const alice = {
    name: 'alice',
    kind: 'user' as const,
    systemId: 1001,
    principalId: 'aaaaaaaaaaaaaaaa',
    disabled: false,
    roles: ['user'],
    createdAt: 1,
  };
  await store.putPrincipal(alice);
  await store.putToken({ tokenHash: 'h1', principalId: alice.principalId, issuedAt: 1, expiresAt: undefined });
  const seen = await store.atomically(async () => {
    await store.token('h1');
    const before = [
      (await store.principalById(alice.principalId))!.disabled,
      await store.groupIdsOf(alice.principalId),
      await store.role('custom'),
    ];
    await store.putPrincipal({ ...alice, disabled: true });
    await store.putMembership('gggggggggggggggg', alice.principalId);
    await store.putRole({ name: 'custom', operations: ['keys.read'] });
    const after = [
      (await store.principalById(alice.principalId))!.disabled,
      await store.groupIdsOf(alice.principalId),
      await store.role('custom'),
    ];
    return { before, after };
  });
  t.deepEqual(seen.before, [false, [], undefined]);
  t.deepEqual(seen.after, [true, ['gggggggggggggggg'], { name: 'custom', operations: ['keys.read'] }]);
});

maybe(
  'a database at schema version 1 moves to key versions: each key is version 1 with the same material, minimum version 1',
  async (t) => {
    const schema = `store_${++schemas}`;
    const client = new pg.Client({ connectionString: postgres.url!, options: `-c search_path=${schema}` });
    await client.connect();
    t.teardown(() => client.end());
    await migratePostgresEngine(client, schema, 1);
    const material = Buffer.alloc(32, 5);
    const { keyId, sealed } = keyring.seal(material, sealContext('keys', 'b2xk'));
    await client.query(
      `INSERT INTO keys (ttag, nid, material, material_key_id, owner, created_at, expired, acl_revision) VALUES ('b2xk', 427, $1, $2, 'aaaaaaaaaaaaaaaa', 1, 0, 2)`,
      [sealed, keyId],
    );
    t.deepEqual((await client.query('SELECT version FROM keygate_engine_schema_version')).rows, [{ version: 1 }]);

    const store = await open(t, { schema });
    const stored = (await store.key('b2xk'))!;
    t.true(stored.material.equals(material));
    t.is(stored.minVersion, 1);
    t.deepEqual(stored.laterVersions, []);
    t.is(stored.aclRevision, 2);
    t.false(stored.disabled, 'a key stored before key states is active');
    await store.putKeyVersion('b2xk', { version: 2, material: Buffer.alloc(32, 6), createdAt: 2 });
    t.true((await store.key('b2xk'))!.laterVersions[0]!.material.equals(Buffer.alloc(32, 6)));
    t.deepEqual((await client.query('SELECT version FROM keygate_engine_schema_version')).rows, [
      { version: POSTGRES_ENGINE_SCHEMA_VERSION },
    ]);
  },
);

maybe('a master-key rotation rewraps every key version; the old master key then opens none', async (t) => {
  const schema = `store_${++schemas}`;
  const oldKey = generateMasterKey();
  const store = await open(t, { schema, keys: new MasterKeyring([oldKey]) });
  await store.putKey(key('cm90', Buffer.alloc(32, 1)));
  await store.putKeyVersion('cm90', { version: 2, material: Buffer.alloc(32, 2), createdAt: 2 });
  const newKey = generateMasterKey();
  t.is(await store.rewrap(new MasterKeyring([newKey, oldKey])), 2);
  const after = await open(t, { schema, keys: new MasterKeyring([newKey]) });
  t.deepEqual(await after.keyIdsInUse(), [newKey.id]);
  const stored = (await after.key('cm90'))!;
  t.true(stored.material.equals(Buffer.alloc(32, 1)));
  t.true(stored.laterVersions[0]!.material.equals(Buffer.alloc(32, 2)));
});

// serial: it swaps AsyncLocalStorage's methods for the time it runs (store-close.test.ts has the other stores).
maybe.serial('a closed store leaves no asynchronous context of its own enabled', async (t) => {
  const left = await contextsLeftBy(async () => {
    const store = await PostgresEngineStore.open({ url: postgres.url!, keyring, schema: `store_${++schemas}` });
    await useThenClose(store);
  });
  t.true(left.ran > 0, 'the store runs its units in a context');
  t.is(left.stillEnabled, 0);
});
