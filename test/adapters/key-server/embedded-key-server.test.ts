import test from 'ava';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { EmbeddedKeyServer, TOKEN_SWEEP_INTERVAL_MS } from '../../../src/adapters/key-server/embedded-key-server.js';
import { CryptoRandom } from '../../../src/adapters/random/crypto-random.js';
import { Secret } from '../../../src/domain/secret/secret.js';
import { KeyServerEngine } from '../../../src/keyserver/engine/engine.js';
import { hashToken } from '../../../src/keyserver/engine/engine-tokens.js';
import { MemoryEngineStore } from '../../../src/keyserver/store/memory-engine-store.js';

test('the embedded key server sweeps expired tokens as the daemon does, instead of keeping every token ever issued', async (t) => {
  const store = new MemoryEngineStore();
  const clock = new ManualClock(1_700_000_000_000);
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new CryptoRandom(), tokenTtlMs: 60_000 });
  await engine.createPrincipal({ name: 'alice', kind: 'user', password: 'alice-password' });
  const keyServer = new EmbeddedKeyServer(engine, 'fingerprint', () => clock.now());
  t.teardown(() => keyServer.close());
  const old = await keyServer.login('alice', new Secret('alice-password'));
  t.truthy(await store.token(hashToken(old.token.reveal())));
  clock.advance(TOKEN_SWEEP_INTERVAL_MS);
  const fresh = await keyServer.login('alice', new Secret('alice-password'));
  t.is(await store.token(hashToken(old.token.reveal())), undefined);
  t.truthy(await store.token(hashToken(await fresh.token.reveal())));
});
