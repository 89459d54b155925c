import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { srpCreateVerifier } from '../../src/crypto/srp/srp-verifier.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { SeededRandom } from '../_support/seeded-random.js';

/** An engine with one administrator and its token. */
async function adminEngine() {
  const store = new MemoryEngineStore();
  const clock = new ManualClock();
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  await engine.createPrincipal({ name: 'root', kind: 'user', roles: ['admin'] });
  const token = (await engine.issueToken((await store.principalByName('root'))!)).token;
  return { engine, token };
}

// A verifier record travels as standard base64 (docs/spec.md §4.5's rule for binary values).
const good = () => {
  const record = srpCreateVerifier('alice', 'correct horse', new SeededRandom());
  return { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') };
};

const BAD: ReadonlyArray<readonly [string, (record: { salt: string; verifier: string }) => unknown]> = [
  ['a salt that is not base64', (r) => ({ ...r, salt: 'not base64!' })],
  ['a salt in base64url', (r) => ({ ...r, salt: r.salt.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_') })],
  ['a verifier with a line break', (r) => ({ ...r, verifier: `${r.verifier.slice(0, 64)}\n${r.verifier.slice(64)}` })],
  ['a salt that is a number', (r) => ({ ...r, salt: 1234 })],
];

for (const [title, spoil] of BAD) {
  test(`a principal whose verifier record has ${title} is refused as BAD_REQUEST naming the verifier`, async (t) => {
    const { engine, token } = await adminEngine();
    const verifier = spoil(good()) as { salt: string; verifier: string };
    const error = await t.throwsAsync(engine.principals.create(token, { name: 'alice', kind: 'user', verifier }));
    t.like(error, { code: 'BAD_REQUEST', message: 'verifier: not an SRP-6a verifier record' });
  });
}

test('a principal whose verifier record is standard base64 is created', async (t) => {
  const { engine, token } = await adminEngine();
  t.is((await engine.principals.create(token, { name: 'alice', kind: 'user', verifier: good() })).name, 'alice');
});
