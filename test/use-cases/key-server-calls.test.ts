import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { ObservedKeyServer } from '../../src/adapters/key-server/observed-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { SessionRecord } from '../../src/domain/session/session.js';
import type { KeyServerCallEnded } from '../../src/ports/key-server.port.js';
import { KeyServerCalls } from '../../src/use-cases/key-server-calls.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';

/** A real embedded key server, every call it answers noted in order by the observing decorator. */
async function subject(t: import('ava').ExecutionContext) {
  const { keyServer: inner } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    new ManualClock(Date.now()),
    new CryptoRandom(),
  );
  t.teardown(() => inner.close());
  const ended: KeyServerCallEnded[] = [];
  const keyServer = new ObservedKeyServer(inner, [(call) => ended.push(call)]);
  const login = await keyServer.login('alice', new Secret(PASSWORDS.alice));
  const caller = { session: { token: login.token } as unknown as SessionRecord, key: 'k' };
  return { calls: new KeyServerCalls({ keyServer }), caller, ended };
}

test('runs the named operation on a fresh connection with the caller token and answers its result', async (t) => {
  const { calls, caller, ended } = await subject(t);
  const { ttag } = await calls.call(caller, 'generateKey', { keyLen: 16 });
  t.like(await calls.call(caller, 'readKey', { ttag }), { ttag, keyLen: 16, owner: { user: 'alice' } });
  t.deepEqual(
    ended.map((call) => call.member),
    ['login', 'connect', 'generateKey', 'connect', 'readKey'],
  );
});

test("passes the key server's refusal on unchanged, by its code", async (t) => {
  const { calls, caller, ended } = await subject(t);
  await t.throwsAsync(calls.call(caller, 'readKey', { ttag: 'no-such-key' }), { code: 'NOT_FOUND' });
  t.like(ended.at(-1), { member: 'readKey', failed: true });
});
