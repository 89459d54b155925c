import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { SRP_GROUP_2048 } from '../../src/crypto/srp/srp-group.js';
import { pad } from '../../src/crypto/srp/srp-math.js';
import { srpClientStart } from '../../src/domain/srp/srp-client.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';

async function engineWithAlice() {
  const store = new MemoryEngineStore();
  const clock = new ManualClock();
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new CryptoRandom() });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-password' });
  return { engine, store, clock };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

// Issue 13 §1: the first step answered in 2.0 ms for an unknown name and 4.0 ms for a known one.
// A relative comparison of two code paths in one process, interleaved, with a generous bound.
test('the first login step costs the same for an unknown name as for a known one', async (t) => {
  const { engine } = await engineWithAlice();
  const A = pad(SRP_GROUP_2048, srpClientStart(new CryptoRandom()).A);
  const known: number[] = [];
  const unknown: number[] = [];
  const sample = async (user: string) => {
    const started = process.hrtime.bigint();
    const { handle } = await engine.login.begin(user, A);
    const elapsed = Number(process.hrtime.bigint() - started);
    await t.throwsAsync(async () => await engine.login.finish(handle, Buffer.alloc(32)));
    return elapsed;
  };
  for (let i = 0; i < 20; i++) await sample(i % 2 ? 'alice' : `warm-${i}`);
  for (let i = 0; i < 150; i++) {
    known.push(await sample('alice'));
    unknown.push(await sample(`nobody-${i}`));
  }
  const ratio = median(unknown) / median(known);
  t.true(ratio > 0.67 && ratio < 1.5, `unknown/known median ratio ${ratio.toFixed(2)}`);
});

test('an unknown name gets the same decoy salt every time, and a different one from another name', async (t) => {
  const { engine } = await engineWithAlice();
  const A = pad(SRP_GROUP_2048, srpClientStart(new CryptoRandom()).A);
  const first = await engine.login.begin('nobody', A);
  const second = await engine.login.begin('nobody', A);
  const other = await engine.login.begin('somebody', A);
  t.deepEqual(first.salt, second.salt);
  t.notDeepEqual(first.salt, other.salt);
  t.is(first.salt.length, 16);
  t.is(first.B.length, SRP_GROUP_2048.byteLength);
});

test('the in-process password check reads the principal once and refuses a wrong password or an unknown name alike', async (t) => {
  const { engine, store } = await engineWithAlice();
  let lookups = 0;
  const read = await store.principalByName.bind(store);
  store.principalByName = (name: string) => {
    lookups += 1;
    return read(name);
  };
  const ok = await engine.login.verifyPassword('alice', 'alice-password');
  t.is(lookups, 1);
  t.is(ok.identity.user, 'alice');
  t.true(ok.token.length > 0);
  const wrong = await t.throwsAsync(async () => await engine.login.verifyPassword('alice', 'nope'));
  const unknown = await t.throwsAsync(async () => await engine.login.verifyPassword('nobody', 'alice-password'));
  t.is((wrong as { code?: string }).code, 'WRONG_CREDENTIAL');
  t.is((unknown as { code?: string }).code, 'WRONG_CREDENTIAL');
  t.is(wrong?.message, unknown?.message);
});

test('the in-process password check costs the same for an unknown name as for a known one', async (t) => {
  const { engine } = await engineWithAlice();
  const sample = async (user: string) => {
    const started = process.hrtime.bigint();
    await t.throwsAsync(async () => await engine.login.verifyPassword(user, 'wrong-password'));
    return Number(process.hrtime.bigint() - started);
  };
  for (let i = 0; i < 20; i++) await sample(i % 2 ? 'alice' : `warm-${i}`);
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 150; i++) {
    known.push(await sample('alice'));
    unknown.push(await sample(`nobody-${i}`));
  }
  const ratio = median(unknown) / median(known);
  t.true(ratio > 0.67 && ratio < 1.5, `unknown/known median ratio ${ratio.toFixed(2)}`);
});
