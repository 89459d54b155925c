import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { codeOf, engineOn, freshSchema, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const DAY = 86_400_000;
const MINUTE = 60_000;

for (const kind of STORE_KINDS) {
  const check = testUnless(kind === 'postgres' ? postgres.reason : undefined);

  check(`${kind}: a scheduled key is destroyed by the sweep once due: material and versions erased, a tombstone kept`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
    const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16 }));
    await run(() => engine.keys.rotate(alice!, ttag));
    t.is(await codeOf(() => run(() => engine.keyDeletion.schedule(alice!, ttag, 6))), 'BAD_REQUEST', 'below the minimum');
    t.is(await codeOf(() => run(() => engine.keyDeletion.schedule(alice!, ttag, 31))), 'BAD_REQUEST', 'above the maximum');
    const pending = await run(() => engine.keyDeletion.schedule(alice!, ttag));
    t.like(pending, { state: 'pending-deletion', deletionAt: new Date(clock.now() + 30 * DAY).toISOString() }, 'the maximum by default');
    t.is(await codeOf(() => run(() => engine.keyDeletion.schedule(alice!, ttag, 7))), 'KEY_PENDING_DELETION');
    t.is(await codeOf(() => run(() => engine.keys.exportKey(alice!, ttag))), 'KEY_PENDING_DELETION');
    t.is(await codeOf(() => run(() => engine.keys.rotate(alice!, ttag))), 'KEY_PENDING_DELETION');
    t.is(await codeOf(() => run(() => engine.keys.disable(alice!, ttag))), 'KEY_PENDING_DELETION');

    clock.advance(30 * DAY - 1);
    t.deepEqual(await engine.destroyDue(), { destroyed: [], failed: [] }, 'not due a millisecond before');
    clock.advance(1);
    t.deepEqual(await engine.destroyDue(), { destroyed: [ttag], failed: [] });
    t.deepEqual(await engine.destroyDue(), { destroyed: [], failed: [] }, 'destroyed once');

    const row = await run(() => store.key(ttag));
    t.is(row?.material.length, 0, 'no material left');
    t.deepEqual(row?.laterVersions, [], 'no later version left');
    t.like(await run(() => engine.keys.view(alice!, ttag)), {
      state: 'deleted',
      deletedAt: new Date(clock.now()).toISOString(),
      deletionAt: new Date(clock.now()).toISOString(),
    });
    const uses: (() => Promise<unknown>)[] = [
      () => engine.keys.exportKey(alice!, ttag),
      () => engine.keys.rotate(alice!, ttag),
      () => engine.keys.enable(alice!, ttag),
      () => engine.keyDeletion.schedule(alice!, ttag),
      () => engine.keyDeletion.cancel(alice!, ttag),
      () => engine.crypto.encrypt(alice!, ttag, { plaintext: Buffer.from('x') }),
    ];
    for (const use of uses) t.is(await codeOf(() => run(use)), 'KEY_DELETED');
  });

  check(`${kind}: a creation replayed under its Idempotency-Key never answers a key scheduled for deletion since`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
    const claim = { key: 'make-once', fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg' };
    const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16 }, claim));
    await run(() => engine.keyDeletion.schedule(alice!, ttag, 7));
    t.is(await codeOf(() => run(() => engine.keys.generate(alice!, { keyLen: 16 }, claim))), 'KEY_PENDING_DELETION');
  });

  check(`${kind}: the scheduled rotation leaves a key pending deletion, and a tombstone, alone`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
    const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1D' }));
    await run(() => engine.keyDeletion.schedule(alice!, ttag, 7));
    clock.advance(2 * DAY);
    t.deepEqual(await engine.rotateDue(), { rotated: [], failed: [] }, 'pending deletion');
    clock.advance(5 * DAY);
    await engine.destroyDue();
    clock.advance(2 * DAY);
    t.deepEqual(await engine.rotateDue(), { rotated: [], failed: [] }, 'deleted');
    t.like(await run(() => engine.keys.view(alice!, ttag)), { state: 'deleted', version: 1 });
  });

  check(`${kind}: cancelling brings the key back disabled; a cancelled key is never destroyed`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice, bob } = await tokensFor(engine, store, ['alice', 'bob']);
    const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
    const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16 }));
    t.like(await run(() => engine.keyDeletion.cancel(alice!, ttag)), { state: 'active' }, 'cancelling a key not pending changes nothing');
    t.is(await codeOf(() => run(() => engine.keyDeletion.schedule(bob!, ttag, 7))), 'ACL_DENIED');
    await run(() => engine.keyDeletion.schedule(alice!, ttag, 7));
    const cancelled = await run(() => engine.keyDeletion.cancel(alice!, ttag));
    t.is(cancelled.state, 'disabled');
    t.false('deletionAt' in cancelled);
    clock.advance(8 * DAY);
    t.deepEqual((await engine.destroyDue()).destroyed, []);
    t.like(await run(() => engine.keys.enable(alice!, ttag)), { state: 'active' });
  });

  check(
    `${kind}: a destruction's audit record is claimed by one gateway at a time, claimable again after 5 minutes, gone once confirmed`,
    async (t) => {
      const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
      const { alice } = await tokensFor(engine, store, ['alice']);
      const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
      const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16 }));
      await run(() => engine.keyDeletion.schedule(alice!, ttag, 7));
      t.deepEqual(await run(() => engine.claimDestructions()), [], 'nothing destroyed yet');
      clock.advance(7 * DAY);
      await engine.destroyDue();
      const destroyedAt = clock.now();
      t.deepEqual(await run(() => engine.claimDestructions()), [{ ttag, deletedAt: destroyedAt }]);
      t.deepEqual(await run(() => engine.claimDestructions()), [], 'claimed: not handed out again');
      clock.advance(5 * MINUTE);
      t.deepEqual(await run(() => engine.claimDestructions()), [{ ttag, deletedAt: destroyedAt }], 'a lapsed claim is claimable again');
      await run(() => engine.confirmDestruction(ttag));
      clock.advance(10 * MINUTE);
      t.deepEqual(await run(() => engine.claimDestructions()), [], 'confirmed: never handed out again');
    },
  );

  check(`${kind}: a new key never takes a tombstone's ttag`, async (t) => {
    const store = await openStore(kind, postgres);
    const clock = new ManualClock();
    // A random source that answers the same handle bytes for the first two keys.
    let draws = 0;
    const random = {
      bytes(length: number): Uint8Array {
        draws += 1;
        return new Uint8Array(length).fill(length === 24 && draws <= 4 ? 7 : draws % 251);
      },
    };
    const engine = new KeyServerEngine({ store, now: () => clock.now(), random });
    t.teardown(() => engine.close());
    await engine.prepare();
    const { alice } = await tokensFor(engine, store, ['alice']);
    const run = <T>(operation: () => Promise<T>) => engine.atomically(operation);
    const { ttag } = await run(() => engine.keys.generate(alice!, { keyLen: 16 }));
    await run(() => engine.keyDeletion.schedule(alice!, ttag, 7));
    clock.advance(7 * DAY);
    await engine.destroyDue();
    const next = await run(() => engine.keys.generate(alice!, { keyLen: 16 }));
    t.not(next.ttag, ttag);
    t.like(await run(() => engine.keys.view(alice!, ttag)), { state: 'deleted' }, 'the tombstone stays');
  });
}

test('the deletion bounds are the engine options, checked: 1 <= min <= max <= 365', async (t) => {
  const store = await openStore('memory', postgres);
  const make = (min: number, max: number) =>
    new KeyServerEngine({ store, now: () => 0, random: { bytes: (n: number) => new Uint8Array(n) }, deletionDays: { min, max } });
  t.throws(() => make(10, 5), { message: /minimum \(10 days\) is above the maximum \(5 days\)/ });
  t.throws(() => make(0, 5), { message: /from 1 to 365/ });
  t.throws(() => make(1, 366), { message: /from 1 to 365/ });
  t.notThrows(() => make(1, 365));
});

if (postgres.url !== undefined) {
  test('key servers on one PostgreSQL store sweeping at once destroy each due key once, and claim each record once', async (t) => {
    const schema = freshSchema();
    const clock = new ManualClock();
    const all = [];
    for (let i = 0; i < 3; i += 1) all.push(await engineOn(t, await openStore('postgres', postgres, schema), clock));
    const first = all[0]!;
    const { alice } = await tokensFor(first.engine, first.store, ['alice']);
    const ttags: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { ttag } = await first.engine.atomically(() => first.engine.keys.generate(alice!, { keyLen: 16 }));
      await first.engine.atomically(() => first.engine.keyDeletion.schedule(alice!, ttag, 7));
      ttags.push(ttag);
    }
    clock.advance(7 * DAY);
    const sweeps = await Promise.all(all.map(({ engine }) => engine.destroyDue()));
    t.deepEqual(sweeps.flatMap((sweep) => sweep.destroyed).sort(), [...ttags].sort(), 'each key once, by one key server or another');
    t.deepEqual(
      sweeps.flatMap((sweep) => sweep.failed),
      [],
    );
    const claims = await Promise.all(all.map(({ engine }) => engine.atomically(() => engine.claimDestructions())));
    t.deepEqual(
      claims
        .flat()
        .map((claim) => claim.ttag)
        .sort(),
      [...ttags].sort(),
      'each record claimed once',
    );
  });
}

test('sqlite: a tombstone is not plaintext to seal: reopening the file and rotating the master key leave it unsealed and deleted', async (t) => {
  const dir = scratchDir('keygate-tombstone-');
  const path = join(dir, 'keyserver.db');
  const firstKey = generateMasterKey();
  const first = new MasterKeyring([firstKey]);
  const clock = new ManualClock();
  const { engine, store } = await engineOn(t, new SqliteEngineStore(path, first), clock);
  const { alice } = await tokensFor(engine, store, ['alice']);
  const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
  await engine.atomically(() => engine.keyDeletion.schedule(alice!, ttag, 7));
  clock.advance(7 * DAY);
  t.deepEqual((await engine.destroyDue()).destroyed, [ttag]);
  await engine.close();

  const stored = () => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare('SELECT length(material) AS bytes, material_key_id AS keyId FROM keys WHERE ttag = ?').get(ttag);
    } finally {
      db.close();
    }
  };
  const reopened = new SqliteEngineStore(path, first);
  t.deepEqual(stored(), { bytes: 0, keyId: null }, 'the open pass that seals plaintext left it alone');
  const rotated = new MasterKeyring([generateMasterKey(), firstKey]);
  await reopened.close();
  const rewrapping = new SqliteEngineStore(path, rotated);
  rewrapping.rewrap();
  t.deepEqual(stored(), { bytes: 0, keyId: null }, 'a master-key rotation left it alone');
  const again = await engineOn(t, rewrapping, clock);
  const { alice: token } = await tokensFor(again.engine, again.store, ['alice']);
  t.like(await again.engine.atomically(() => again.engine.keys.view(token!, ttag)), { state: 'deleted' });
});

testUnless(postgres.reason)(
  'postgres: a master-key rotation leaves a tombstone unsealed, and the old key opens no row of it',
  async (t) => {
    const schema = freshSchema();
    const oldKey = generateMasterKey();
    const store = await PostgresEngineStore.open({ url: postgres.url!, keyring: new MasterKeyring([oldKey]), schema });
    const clock = new ManualClock();
    const { engine } = await engineOn(t, store, clock);
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    await engine.atomically(() => engine.keys.rotate(alice!, ttag));
    await engine.atomically(() => engine.keyDeletion.schedule(alice!, ttag, 7));
    clock.advance(7 * DAY);
    t.deepEqual((await engine.destroyDue()).destroyed, [ttag]);
    await store.rewrap(new MasterKeyring([generateMasterKey(), oldKey]));
    const client = new pg.Client({ connectionString: postgres.url!, options: `-c search_path=${schema}` });
    await client.connect();
    t.teardown(() => client.end());
    const row = (await client.query('SELECT length(material) AS bytes, material_key_id AS "keyId" FROM keys WHERE ttag = $1', [ttag]))
      .rows[0];
    t.deepEqual(row, { bytes: 0, keyId: null });
    t.deepEqual((await client.query('SELECT id FROM key_versions WHERE ttag = $1', [ttag])).rows, []);
  },
);
