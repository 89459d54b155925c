import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import { CONTRACT_SEED, keyServerContract } from './key-server.contract.js';

const TOKEN_TTL_SECONDS = 600;

keyServerContract('embedded', async () => {
  const clock = new ManualClock(Date.now());
  const { keyServer } = await startEmbeddedKeyServer(
    {
      kind: 'embedded',
      tokenTtlSeconds: TOKEN_TTL_SECONDS,
      seed: CONTRACT_SEED,
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
