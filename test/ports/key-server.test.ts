import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { keyServerContract } from './key-server.contract.js';

const TOKEN_TTL_SECONDS = 600;

keyServerContract('embedded', async () => {
  const clock = new ManualClock();
  const { keyServer } = await startEmbeddedKeyServer(
    {
      kind: 'embedded',
      tokenTtlSeconds: TOKEN_TTL_SECONDS,
      adminPassword: 'admin-pw',
      seed: { principals: ['alice', 'bob', 'carol'].map((name) => ({ name, kind: 'user' as const, password: `${name}-pw` })) },
    },
    clock,
    new CryptoRandom(),
  );
  return {
    keyServer,
    expireTokens: async () => clock.advance(TOKEN_TTL_SECONDS * 1000),
    close: () => keyServer.close(),
  };
});
