import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SeededRandom } from '../_support/seeded-random.js';

async function adminEngine() {
  const store = new MemoryEngineStore();
  const clock = new ManualClock();
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom(), tokenTtlMs: 600_000 });
  await engine.createPrincipal({ name: 'admin', kind: 'user', roles: ['admin'] });
  return { engine, clock, store, token: (await engine.issueToken((await store.principalByName('admin'))!)).token };
}

const codeOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

test('tokenTtlSeconds starts from the configured lifetime', async (t) => {
  const { engine, token } = await adminEngine();
  t.like((await engine.server.parameters(token)).items[0], { name: 'tokenTtlSeconds', value: 600 });
});

test('maxPendingLogins set at runtime bounds the logins in progress', async (t) => {
  const { engine, token } = await adminEngine();
  await engine.server.setParameter(token, 'maxPendingLogins', 1);
  await engine.login.begin('admin', Buffer.from([2]));
  t.is(await codeOf(async () => await engine.login.begin('admin', Buffer.from([2]))), 'KEY_SERVER_FAILED');
});

test('loginHandshakeSeconds set at runtime ends a login whose second step comes later', async (t) => {
  const { engine, clock, token } = await adminEngine();
  await engine.server.setParameter(token, 'loginHandshakeSeconds', 5);
  const { handle } = await engine.login.begin('admin', Buffer.from([2]));
  clock.advance(5000);
  await t.throwsAsync(async () => await engine.login.finish(handle, Buffer.alloc(32)), { message: /no login in progress/ });
});

test('a parameter is refused by name (NOT_FOUND) and by value (BAD_REQUEST), and the value stays', async (t) => {
  const { engine, token } = await adminEngine();
  t.is(await codeOf(async () => await engine.server.setParameter(token, 'nope', 1)), 'NOT_FOUND');
  t.is(await codeOf(async () => await engine.server.setParameter(token, 'loginHandshakeSeconds', 4)), 'BAD_REQUEST');
  t.is(await codeOf(async () => await engine.server.setParameter(token, 'loginHandshakeSeconds', '60')), 'BAD_REQUEST');
  t.like((await engine.server.parameters(token)).items[1], { name: 'loginHandshakeSeconds', value: 60 });
});
