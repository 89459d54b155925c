import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { tokensFor } from '../_support/engine-stores.js';
import { SeededRandom } from '../_support/seeded-random.js';

/** A random source whose next 24-byte draw, once armed, is a ttag that reads as an alias. */
class AliasFirstRandom extends SeededRandom {
  armed = false;

  override bytes(length: number): Uint8Array {
    if (!this.armed || length !== 24) return super.bytes(length);
    this.armed = false;
    return Buffer.from(`alias/${'A'.repeat(26)}`, 'base64');
  }
}

test('the key server never issues a ttag whose standard base64 begins with alias/ (docs/spec.md §4.23 item 3): it draws again', async (t) => {
  const store = new MemoryEngineStore();
  const random = new AliasFirstRandom();
  const engine = new KeyServerEngine({ store, now: () => new ManualClock().now(), random });
  t.teardown(() => engine.close());
  const { alice } = await tokensFor(engine, store, ['alice']);
  t.true(
    Buffer.from(`alias/${'A'.repeat(26)}`, 'base64')
      .toString('base64')
      .startsWith('alias/'),
    'the draw is such a ttag',
  );
  random.armed = true;
  const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
  t.false(random.armed, 'the alias-like draw was made');
  t.false(ttag.startsWith('alias/'));
  t.is(Buffer.from(ttag, 'base64').length, 24);
});

test('a scoped token reaches a key by alias only when its scope names the key the alias resolves to, and lists only its aliases', async (t) => {
  const store = new MemoryEngineStore();
  const engine = new KeyServerEngine({ store, now: () => new ManualClock().now(), random: new SeededRandom() });
  t.teardown(() => engine.close());
  const { alice } = await tokensFor(engine, store, ['alice']);
  const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
  const { ttag: other } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
  await runOperation(engine, 'putAlias', alice!, { alias: 'mine', ttag });
  await runOperation(engine, 'putAlias', alice!, { alias: 'theirs', ttag: other });
  const principal = (await store.principalByName('alice'))!;
  const scoped = (await engine.issueToken(principal, { scope: { [ttag]: ['encrypt'] } })).token;
  const sealed = await runOperation(engine, 'encrypt', scoped, { ttag: 'alias/mine', request: { plaintext: Buffer.from('x') } });
  t.is(sealed.resolved, ttag);
  await t.throwsAsync(runOperation(engine, 'encrypt', scoped, { ttag: 'alias/theirs', request: { plaintext: Buffer.from('x') } }), {
    message: /scope|scoped/i,
  });
  t.deepEqual(await runOperation(engine, 'accessRights', scoped, { ttag: 'alias/mine' }), { rights: ['encrypt'], resolved: ttag });
  t.false('resolved' in (await runOperation(engine, 'encrypt', alice!, { ttag, request: { plaintext: Buffer.from('x') } })));
  t.deepEqual(
    (await runOperation(engine, 'listAliases', scoped, { limit: 10 })).items.map((item) => item.alias),
    ['mine'],
  );
});

test('an alias cannot name a deleted key (KEY_DELETED), and a scope minted by alias names the ttag', async (t) => {
  const store = new MemoryEngineStore();
  const engine = new KeyServerEngine({ store, now: () => new ManualClock().now(), random: new SeededRandom() });
  t.teardown(() => engine.close());
  const { alice } = await tokensFor(engine, store, ['alice']);
  const { ttag } = await runOperation(engine, 'generateKey', alice!, { keyLen: 16 });
  await runOperation(engine, 'putAlias', alice!, { alias: 'kept', ttag });
  const minted = await runOperation(engine, 'mintScoped', alice!, { objects: ['alias/kept'], rights: ['read'], ttlMs: 60_000 });
  t.deepEqual(minted.scope, { [ttag]: ['read'] });
  // A tombstone as the scheduled deletion leaves it (docs/spec.md §4.23 item 5), written here directly.
  await store.putKey({ ...(await store.key(ttag))!, deletedAt: 1 });
  await t.throwsAsync(runOperation(engine, 'putAlias', alice!, { alias: 'late', ttag }), { code: 'KEY_DELETED' });
  t.is(await store.alias('late'), undefined);
});
