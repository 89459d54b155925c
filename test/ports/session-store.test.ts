import { randomBytes } from 'node:crypto';
import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { MemorySessionStore } from '../../src/adapters/session-store/memory-session-store.js';
import { RedisSessionStore } from '../../src/adapters/session-store/redis-session-store.js';
import { sealingKeyring } from '../../src/domain/session/seal-token.js';
import { testRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';
import { sessionStoreContract } from './session-store.contract.js';

// Settled before any test is declared: ava wants every declaration in the first turn.
const redis = await testRedis();

sessionStoreContract('memory', async (clock) => new MemorySessionStore(clock));

if ('skipped' in redis) {
  skipAll('redis session store contract', redis.skipped);
} else {
  test.after.always(() => redis.close());
  const keyring = sealingKeyring([randomBytes(32)]);
  // Each store gets a prefix of its own: one Redis, many independent empty stores.
  sessionStoreContract('redis', (clock) =>
    RedisSessionStore.connect({
      url: redis.url,
      timeoutMs: 2_000,
      keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
      keyring,
      clock,
      random: new CryptoRandom(),
    }),
  );
}
