import { randomBytes } from 'node:crypto';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { DEFAULT_REPLAY_CACHE_ENTRIES, MemoryReplayCache } from '../../src/adapters/replay-cache/memory-replay-cache.js';
import { RedisReplayCache } from '../../src/adapters/replay-cache/redis-replay-cache.js';
import { sealingKeyring } from '../../src/domain/session/seal-token.js';
import { testRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';
import { replayCacheContract } from './replay-cache.contract.js';

// Settled before any test is declared: ava wants every declaration in the first turn.
const redis = await testRedis();

replayCacheContract(
  'memory',
  async (clock, maxEntries, maxEntriesPerKey, maxEntriesPerPrincipal) =>
    new MemoryReplayCache(clock, {
      maxEntries,
      ...(maxEntriesPerKey ? { maxEntriesPerKey } : {}),
      ...(maxEntriesPerPrincipal ? { maxEntriesPerPrincipal } : {}),
    }),
);

test('memory replay cache: holds 100 000 entries by default and refuses a bad bound', async (t) => {
  t.is(DEFAULT_REPLAY_CACHE_ENTRIES, 100_000);
  const clock = new ManualClock();
  const cache = new MemoryReplayCache(clock);
  for (let i = 0; i < DEFAULT_REPLAY_CACHE_ENTRIES; i++) await cache.remember('jkt', String(i), clock.now() + 30_000, 'principal');
  t.is(await cache.remember('jkt', 'one-more', clock.now() + 30_000, 'principal'), 'full');
  t.is(await cache.size(), DEFAULT_REPLAY_CACHE_ENTRIES);
  t.throws(() => new MemoryReplayCache(clock, { maxEntries: 0 }), { instanceOf: RangeError });
});

if ('skipped' in redis) {
  skipAll('redis replay cache contract', redis.skipped);
} else {
  test.after.always(() => redis.close());
  // Each cache gets a prefix of its own: one Redis, many independent empty caches.
  replayCacheContract('redis', (clock, maxEntries, maxEntriesPerKey, maxEntriesPerPrincipal) =>
    RedisReplayCache.connect({
      url: redis.url,
      timeoutMs: 2_000,
      keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
      keyring: sealingKeyring([randomBytes(32)]),
      maxEntries,
      ...(maxEntriesPerKey ? { maxEntriesPerKey } : {}),
      ...(maxEntriesPerPrincipal ? { maxEntriesPerPrincipal } : {}),
      clock,
    }),
  );
}
