import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { engineOn, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';

/** docs/spec.md §4.23 item 6: the last use, written at most once a minute per key, in the unit of the use. */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

/** Counts the store's writes of a key's last use and of its row, calling through to the store. */
function countingWrites(store: EngineStore): { keyUses: number; keyRows: number } {
  const counts = { keyUses: 0, keyRows: 0 };
  const recordKeyUse = store.recordKeyUse.bind(store);
  const putKey = store.putKey.bind(store);
  store.recordKeyUse = (...args) => {
    counts.keyUses += 1;
    return recordKeyUse(...args);
  };
  store.putKey = (...args) => {
    counts.keyRows += 1;
    return putKey(...args);
  };
  return counts;
}

for (const kind of STORE_KINDS) {
  const check = testUnless(kind === 'postgres' ? postgres.reason : undefined);

  check(
    `${kind}: 1,000 uses of a key within a minute write its last use once; a use 60 s after the written one writes again`,
    async (t) => {
      const store = await openStore(kind, postgres);
      const clock = new ManualClock(1_700_000_000_000);
      const { engine } = await engineOn(t, store, clock);
      const { alice, bob } = await tokensFor(engine, store, ['alice', 'bob']);
      const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
      t.false('lastUsedAt' in (await runOperation(engine, 'readKey', alice!, { ttag })), 'an unused key has no last use');
      const writes = countingWrites(store);

      const first = clock.now();
      for (let i = 0; i < 1000; i += 1) {
        await runOperation(engine, 'encrypt', alice!, { ttag, request: { plaintext: Buffer.from(`use ${i}`) } });
        clock.advance(59);
      }
      t.deepEqual(writes, { keyUses: 1, keyRows: 0 }, 'one write of the last use, none of the key row');
      t.like(await runOperation(engine, 'readKey', alice!, { ttag }), {
        lastUsedAt: new Date(first).toISOString(),
        lastUsedOperation: 'encrypt',
      });

      clock.set(first + 59_999);
      await runOperation(engine, 'mac', alice!, { ttag, data: Buffer.from('m') });
      t.is(writes.keyUses, 1, '59.999 s after the written use: nothing written');
      clock.set(first + 60_000);
      await runOperation(engine, 'mac', alice!, { ttag, data: Buffer.from('m') });
      t.is(writes.keyUses, 2);
      t.like(await runOperation(engine, 'readKey', alice!, { ttag }), {
        lastUsedAt: new Date(first + 60_000).toISOString(),
        lastUsedOperation: 'mac',
      });

      // A write of the key's row (a grant) keeps the last use; a refused use is no use.
      await runOperation(engine, 'grant', alice!, { ttag, principal: 'bob', rights: ['read'] });
      clock.advance(120_000);
      await t.throwsAsync(runOperation(engine, 'encrypt', bob!, { ttag, request: { plaintext: Buffer.from('x') } }), {
        message: /encrypt/,
      });
      t.is(writes.keyUses, 2, 'a refused use writes nothing');
      t.like(await runOperation(engine, 'readKey', alice!, { ttag }), {
        lastUsedAt: new Date(first + 60_000).toISOString(),
        lastUsedOperation: 'mac',
      });
    },
  );

  check(`${kind}: a batch of 1,000 items over one key writes its last use once, as its operation`, async (t) => {
    const store = await openStore(kind, postgres);
    const clock = new ManualClock(1_700_000_000_000);
    const { engine } = await engineOn(t, store, clock);
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
    const writes = countingWrites(store);
    const items = Array.from({ length: 1000 }, (_, i) => ({ ttag, data: Buffer.from(`item ${i}`) }));
    const outcomes = await runOperation(engine, 'cryptoBatch', alice!, { operation: 'mac', items });
    t.true(outcomes.every((outcome) => outcome.ok));
    t.deepEqual(writes, { keyUses: 1, keyRows: 0 });
    t.like(await runOperation(engine, 'readKey', alice!, { ttag }), { lastUsedOperation: 'mac' });
  });
}

test('each use names itself: export, decrypt, MAC verify, rewrap, data keys and their opening', async (t) => {
  const store = new MemoryEngineStore();
  const clock = new ManualClock(1_700_000_000_000);
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new CryptoRandom() });
  t.teardown(() => engine.close());
  const { alice } = await tokensFor(engine, store, ['alice']);
  const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
  const lastUse = async () => (await runOperation(engine, 'readKey', alice!, { ttag })).lastUsedOperation;
  const sealed = await runOperation(engine, 'encrypt', alice!, { ttag, request: { plaintext: Buffer.from('x') } });
  const { mac } = await runOperation(engine, 'mac', alice!, { ttag, data: Buffer.from('m') });
  const { blob } = await runOperation(engine, 'generateDataKey', alice!, { ttag, keyLen: 16 });
  const clientPubKey = Buffer.from(
    (await globalThis.crypto.subtle.exportKey(
      'raw',
      (
        await globalThis.crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
      ).publicKey,
    )) as ArrayBuffer,
  );
  const uses = [
    ['export', () => runOperation(engine, 'exportKey', alice!, { ttag })],
    ['decrypt', () => runOperation(engine, 'decrypt', alice!, { ttag, request: sealed })],
    ['mac.verify', () => runOperation(engine, 'verifyMac', alice!, { ttag, request: { data: Buffer.from('m'), mac } })],
    ['rewrap', () => runOperation(engine, 'rewrap', alice!, { ttag, request: sealed })],
    ['datakey', () => runOperation(engine, 'generateDataKey', alice!, { ttag, keyLen: 16 })],
    ['datakey.open', () => runOperation(engine, 'openDataKey', alice!, { ttag, blob, clientPubKey })],
  ] as const;
  for (const [name, use] of uses) {
    clock.advance(60_000);
    await use();
    t.is(await lastUse(), name);
  }
});
