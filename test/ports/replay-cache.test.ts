import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { DEFAULT_REPLAY_CACHE_ENTRIES, MemoryReplayCache } from '../../src/adapters/replay-cache/memory-replay-cache.js';
import { replayCacheContract } from './replay-cache.contract.js';

replayCacheContract('memory', async (clock, maxEntries) => new MemoryReplayCache(clock, { maxEntries }));

test('memory replay cache: holds 100 000 entries by default and refuses a bad bound', async (t) => {
  t.is(DEFAULT_REPLAY_CACHE_ENTRIES, 100_000);
  const clock = new ManualClock();
  const cache = new MemoryReplayCache(clock);
  for (let i = 0; i < DEFAULT_REPLAY_CACHE_ENTRIES; i++) await cache.remember('jkt', String(i), clock.now() + 30_000);
  t.is(await cache.remember('jkt', 'one-more', clock.now() + 30_000), 'full');
  t.is(await cache.size(), DEFAULT_REPLAY_CACHE_ENTRIES);
  t.throws(() => new MemoryReplayCache(clock, { maxEntries: 0 }), { instanceOf: RangeError });
});
