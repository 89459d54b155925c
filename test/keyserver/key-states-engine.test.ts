import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SeededRandom } from '../_support/seeded-random.js';

/** The key-state rules of the engine (docs/spec.md §4.6), on a store in memory. */
async function engineOn() {
  const store = new MemoryEngineStore();
  const clock = new ManualClock(1_700_000_000_000);
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  await engine.createPrincipal({ name: 'alice', kind: 'user' });
  const alice = (await store.principalByName('alice'))!;
  return { engine, store, clock, alice, token: (await engine.issueToken(alice)).token };
}

async function codeOf(run: Promise<unknown>): Promise<string | undefined> {
  try {
    await run;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

test('a scoped token neither disables nor enables, whatever rights its scope holds: the state is the owner’s, unscoped', async (t) => {
  const { engine, alice, token } = await engineOn();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16 });
  const scoped = (await engine.issueToken(alice, { scope: { [ttag]: ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate'] } })).token;
  t.is(await codeOf(runOperation(engine, 'disableKey', scoped, { ttag })), 'OUT_OF_SCOPE');
  t.is((await runOperation(engine, 'disableKey', token, { ttag })).state, 'disabled');
  t.is(await codeOf(runOperation(engine, 'enableKey', scoped, { ttag })), 'OUT_OF_SCOPE');
  t.is(await codeOf(runOperation(engine, 'encrypt', scoped, { ttag, request: { plaintext: Buffer.from('x') } })), 'KEY_DISABLED');
});

test('a disabled key whose expiry time passes reads expired, and is then neither enabled nor disabled (KEY_EXPIRED)', async (t) => {
  const { engine, clock, token } = await engineOn();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16, expiresAt: clock.now() + 60_000 });
  t.is((await runOperation(engine, 'disableKey', token, { ttag })).state, 'disabled');
  clock.advance(60_000);
  t.is((await runOperation(engine, 'readKey', token, { ttag })).state, 'expired');
  t.is(await codeOf(runOperation(engine, 'enableKey', token, { ttag })), 'KEY_EXPIRED');
  t.is(await codeOf(runOperation(engine, 'disableKey', token, { ttag })), 'KEY_EXPIRED');
  t.is(await codeOf(runOperation(engine, 'exportKey', token, { ttag })), 'KEY_EXPIRED');
});
