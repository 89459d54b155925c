import test from 'ava';
import fc from 'fast-check';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import type { ReplayCache } from '../../src/ports/replay-cache.port.js';

/**
 * Makes a fresh, empty cache on the given clock, holding at most `maxEntries` live entries, at most
 * `maxEntriesPerKey` of one `jkt` and at most `maxEntriesPerPrincipal` of one principal (each by
 * default: the whole cache).
 */
export type ReplayCacheFactory = (
  clock: ManualClock,
  maxEntries: number,
  maxEntriesPerKey?: number,
  maxEntriesPerPrincipal?: number,
) => Promise<ReplayCache>;

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';
const OTHER_JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
const PRINCIPAL = '859599fa20ab8ea1';
const OTHER_PRINCIPAL = 'b9f7e273dca4db83';

/** The ReplayCache contract (src/ports/replay-cache.port.ts), run against one adapter. */
export function replayCacheContract(name: string, makeCache: ReplayCacheFactory): void {
  const title = (behaviour: string) => `${name} replay cache: ${behaviour}`;

  test(title('remembers a new jti as fresh and a repeat as replayed'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 10);
    t.is(await cache.remember(JKT, 'jti-1', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'jti-1', clock.now() + 30_000, PRINCIPAL), 'replayed');
    t.is(await cache.size(), 1);
    await cache.close();
  });

  test(title('keys entries by (jkt, jti): the same jti under another key is fresh'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 10);
    t.is(await cache.remember(JKT, 'jti-1', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(OTHER_JKT, 'jti-1', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'jti-2', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember('ab', 'c', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember('a', 'bc', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.size(), 5);
    await cache.close();
  });

  test(title('keeps an entry until its expiry and forgets it then'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 10);
    await cache.remember(JKT, 'jti-1', clock.now() + 60_001, PRINCIPAL);
    clock.advance(60_000);
    t.is(await cache.remember(JKT, 'jti-1', clock.now() + 60_001, PRINCIPAL), 'replayed');
    clock.advance(1);
    t.is(await cache.size(), 0);
    t.is(await cache.remember(JKT, 'jti-1', clock.now() + 60_001, PRINCIPAL), 'fresh');
    await cache.close();
  });

  test(title('answers full for a new entry when full, and evicts nothing'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 3);
    for (const jti of ['a', 'b', 'c']) t.is(await cache.remember(JKT, jti, clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'd', clock.now() + 30_000, PRINCIPAL), 'full');
    t.is(await cache.remember(OTHER_JKT, 'a', clock.now() + 30_000, PRINCIPAL), 'full');
    t.is(await cache.size(), 3);
    for (const jti of ['a', 'b', 'c']) t.is(await cache.remember(JKT, jti, clock.now() + 30_000, PRINCIPAL), 'replayed');
    t.is(await cache.remember(JKT, 'd', clock.now() + 30_000, PRINCIPAL), 'full');
    await cache.close();
  });

  test(title('reports a replay as replayed even when full'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 1);
    t.is(await cache.remember(JKT, 'only', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'only', clock.now() + 30_000, PRINCIPAL), 'replayed');
    await cache.close();
  });

  test(title('frees room as entries expire, earliest first'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 3);
    await cache.remember(JKT, 'late', clock.now() + 50_000, PRINCIPAL);
    await cache.remember(JKT, 'early', clock.now() + 10_000, PRINCIPAL);
    await cache.remember(JKT, 'middle', clock.now() + 30_000, PRINCIPAL);
    t.is(await cache.remember(JKT, 'new-1', clock.now() + 60_000, PRINCIPAL), 'full');
    clock.advance(10_000);
    t.is(await cache.size(), 2);
    t.is(await cache.remember(JKT, 'new-1', clock.now() + 60_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'new-2', clock.now() + 60_000, PRINCIPAL), 'full');
    t.is(await cache.remember(JKT, 'middle', clock.now() + 60_000, PRINCIPAL), 'replayed');
    t.is(await cache.remember(JKT, 'late', clock.now() + 60_000, PRINCIPAL), 'replayed');
    clock.advance(20_000);
    t.is(await cache.remember(JKT, 'new-2', clock.now() + 60_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'late', clock.now() + 60_000, PRINCIPAL), 'replayed');
    await cache.close();
  });

  test(title("a key over its share is key-full, evicts nothing, and other keys' proofs are still fresh"), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 10, 3);
    for (const jti of ['a', 'b', 'c']) t.is(await cache.remember(JKT, jti, clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'd', clock.now() + 30_000, PRINCIPAL), 'key-full');
    for (const jti of ['a', 'b', 'c']) t.is(await cache.remember(OTHER_JKT, jti, clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.size(), 6);
    // A replay inside the window is always caught, the share full or not.
    for (const jti of ['a', 'b', 'c']) t.is(await cache.remember(JKT, jti, clock.now() + 30_000, PRINCIPAL), 'replayed');
    await cache.close();
  });

  test(title("a key's share frees as its own entries expire"), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 10, 2);
    await cache.remember(JKT, 'early', clock.now() + 10_000, PRINCIPAL);
    await cache.remember(JKT, 'late', clock.now() + 30_000, PRINCIPAL);
    t.is(await cache.remember(JKT, 'new', clock.now() + 30_000, PRINCIPAL), 'key-full');
    clock.advance(10_000);
    t.is(await cache.remember(JKT, 'new', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember(JKT, 'newer', clock.now() + 30_000, PRINCIPAL), 'key-full');
    t.is(await cache.remember(JKT, 'late', clock.now() + 30_000, PRINCIPAL), 'replayed');
    await cache.close();
  });

  test(title('the whole cache full is full for every key, within its share or not'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 4, 2);
    for (const [jkt, jti] of [
      [JKT, 'a'],
      [JKT, 'b'],
      [OTHER_JKT, 'a'],
      [OTHER_JKT, 'b'],
    ] as const)
      t.is(await cache.remember(jkt, jti, clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember('third-key', 'a', clock.now() + 30_000, PRINCIPAL), 'full');
    t.is(await cache.remember(JKT, 'c', clock.now() + 30_000, PRINCIPAL), 'full');
    await cache.close();
  });

  test(
    title("a principal over its share is principal-full whatever key it uses, and other principals' proofs are still fresh"),
    async (t) => {
      const clock = new ManualClock();
      const cache = await makeCache(clock, 20, 2, 3);
      const keys = ['k1', 'k2', 'k3', 'k4'];
      t.is(await cache.remember(keys[0]!, 'a', clock.now() + 30_000, PRINCIPAL), 'fresh');
      t.is(await cache.remember(keys[1]!, 'a', clock.now() + 30_000, PRINCIPAL), 'fresh');
      t.is(await cache.remember(keys[2]!, 'a', clock.now() + 30_000, PRINCIPAL), 'fresh');
      for (const jkt of keys) t.is(await cache.remember(jkt, 'b', clock.now() + 30_000, PRINCIPAL), 'principal-full');
      t.is(await cache.size(), 3);
      for (const jkt of keys)
        t.is(await cache.remember(jkt, 'a', clock.now() + 30_000, PRINCIPAL), jkt === 'k4' ? 'principal-full' : 'replayed');
      // Another principal is served, and a key over its own share answers key-full first.
      t.is(await cache.remember(JKT, 'a', clock.now() + 30_000, OTHER_PRINCIPAL), 'fresh');
      t.is(await cache.remember(JKT, 'b', clock.now() + 30_000, OTHER_PRINCIPAL), 'fresh');
      t.is(await cache.remember(JKT, 'c', clock.now() + 30_000, OTHER_PRINCIPAL), 'key-full');
      t.is(await cache.remember(OTHER_JKT, 'c', clock.now() + 30_000, OTHER_PRINCIPAL), 'fresh');
      t.is(await cache.remember(OTHER_JKT, 'd', clock.now() + 30_000, OTHER_PRINCIPAL), 'principal-full');
      t.is(await cache.size(), 6);
      await cache.close();
    },
  );

  test(title("a principal's share frees as its own entries expire"), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 20, 5, 2);
    await cache.remember('k1', 'early', clock.now() + 10_000, PRINCIPAL);
    await cache.remember('k2', 'late', clock.now() + 30_000, PRINCIPAL);
    t.is(await cache.remember('k3', 'new', clock.now() + 30_000, PRINCIPAL), 'principal-full');
    clock.advance(10_000);
    t.is(await cache.remember('k3', 'new', clock.now() + 30_000, PRINCIPAL), 'fresh');
    t.is(await cache.remember('k4', 'newer', clock.now() + 30_000, PRINCIPAL), 'principal-full');
    t.is(await cache.remember('k2', 'late', clock.now() + 30_000, PRINCIPAL), 'replayed');
    await cache.close();
  });

  test(title('of many concurrent remembers of one (jkt, jti), exactly one is fresh'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 100);
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => cache.remember(JKT, 'racy', clock.now() + 30_000, PRINCIPAL)));
    t.is(verdicts.filter((v) => v === 'fresh').length, 1);
    t.is(verdicts.filter((v) => v === 'replayed').length, 49);
    await cache.close();
  });

  test(title('holds its bound under many entries with scattered expiries'), async (t) => {
    const clock = new ManualClock();
    const cache = await makeCache(clock, 500);
    let fresh = 0;
    for (let i = 0; i < 2_000; i++) {
      const verdict = await cache.remember(JKT, `jti-${i}`, clock.now() + 1_000 + ((i * 7919) % 60_000), PRINCIPAL);
      if (verdict === 'fresh') fresh++;
      t.true((await cache.size()) <= 500);
      clock.advance(37);
    }
    t.true(fresh > 500);
    clock.advance(61_000);
    t.is(await cache.size(), 0);
    await cache.close();
  });

  test(title('answers as a plain map with expiry and a bound would, over random histories'), async (t) => {
    const step = fc.oneof(
      { arbitrary: fc.record({ advance: fc.integer({ min: 0, max: 10_000 }) }), weight: 1 },
      {
        arbitrary: fc.record({
          jkt: fc.constantFrom(JKT, OTHER_JKT),
          jti: fc.constantFrom(...'abcdefghij'),
          ttl: fc.integer({ min: 1, max: 40_000 }),
        }),
        weight: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 80 }), fc.integer({ min: 1, max: 12 }), async (steps, maxEntries) => {
        const clock = new ManualClock();
        const cache = await makeCache(clock, maxEntries);
        const model = new Map<string, number>();
        try {
          for (const s of steps) {
            if ('advance' in s) {
              clock.advance(s.advance);
              continue;
            }
            for (const [key, expiresAt] of model) if (expiresAt <= clock.now()) model.delete(key);
            const key = `${s.jkt} ${s.jti}`;
            const expected = model.has(key) ? 'replayed' : model.size >= maxEntries ? 'full' : 'fresh';
            if (expected === 'fresh') model.set(key, clock.now() + s.ttl);
            if ((await cache.remember(s.jkt, s.jti, clock.now() + s.ttl, PRINCIPAL)) !== expected) return false;
            if ((await cache.size()) !== model.size) return false;
          }
          return true;
        } finally {
          await cache.close();
        }
      }),
      { numRuns: 300 },
    );
    t.pass();
  });

  test(title('answers as a map with expiry, a bound and a share per key would, over random histories'), async (t) => {
    const step = fc.oneof(
      { arbitrary: fc.record({ advance: fc.integer({ min: 0, max: 10_000 }) }), weight: 1 },
      {
        arbitrary: fc.record({
          jkt: fc.constantFrom(JKT, OTHER_JKT, 'k3'),
          jti: fc.constantFrom(...'abcdefgh'),
          ttl: fc.integer({ min: 1, max: 40_000 }),
        }),
        weight: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        async (steps, maxEntries, share) => {
          const clock = new ManualClock();
          const cache = await makeCache(clock, maxEntries, share);
          const model = new Map<string, { jkt: string; expiresAt: number }>();
          try {
            for (const s of steps) {
              if ('advance' in s) {
                clock.advance(s.advance);
                continue;
              }
              for (const [key, entry] of model) if (entry.expiresAt <= clock.now()) model.delete(key);
              const key = `${s.jkt} ${s.jti}`;
              const ofKey = [...model.values()].filter((entry) => entry.jkt === s.jkt).length;
              const expected = model.has(key) ? 'replayed' : model.size >= maxEntries ? 'full' : ofKey >= share ? 'key-full' : 'fresh';
              if (expected === 'fresh') model.set(key, { jkt: s.jkt, expiresAt: clock.now() + s.ttl });
              if ((await cache.remember(s.jkt, s.jti, clock.now() + s.ttl, PRINCIPAL)) !== expected) return false;
              if ((await cache.size()) !== model.size) return false;
            }
            return true;
          } finally {
            await cache.close();
          }
        },
      ),
      { numRuns: 200 },
    );
    t.pass();
  });

  test(title('answers as a map with expiry, a bound and a share per key and one per principal would, over random histories'), async (t) => {
    const step = fc.oneof(
      { arbitrary: fc.record({ advance: fc.integer({ min: 0, max: 10_000 }) }), weight: 1 },
      {
        arbitrary: fc.record({
          jkt: fc.constantFrom(JKT, OTHER_JKT, 'k3'),
          principal: fc.constantFrom(PRINCIPAL, OTHER_PRINCIPAL),
          jti: fc.constantFrom(...'abcdefgh'),
          ttl: fc.integer({ min: 1, max: 40_000 }),
        }),
        weight: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        async (steps, maxEntries, share, principalShare) => {
          const clock = new ManualClock();
          const cache = await makeCache(clock, maxEntries, share, principalShare);
          const model = new Map<string, { jkt: string; principal: string; expiresAt: number }>();
          try {
            for (const s of steps) {
              if ('advance' in s) {
                clock.advance(s.advance);
                continue;
              }
              for (const [key, entry] of model) if (entry.expiresAt <= clock.now()) model.delete(key);
              const key = `${s.jkt} ${s.jti}`;
              const ofKey = [...model.values()].filter((entry) => entry.jkt === s.jkt).length;
              const ofPrincipal = [...model.values()].filter((entry) => entry.principal === s.principal).length;
              const expected = model.has(key)
                ? 'replayed'
                : model.size >= maxEntries
                  ? 'full'
                  : ofKey >= share
                    ? 'key-full'
                    : ofPrincipal >= principalShare
                      ? 'principal-full'
                      : 'fresh';
              if (expected === 'fresh') model.set(key, { jkt: s.jkt, principal: s.principal, expiresAt: clock.now() + s.ttl });
              if ((await cache.remember(s.jkt, s.jti, clock.now() + s.ttl, s.principal)) !== expected) return false;
              if ((await cache.size()) !== model.size) return false;
            }
            return true;
          } finally {
            await cache.close();
          }
        },
      ),
      { numRuns: 200 },
    );
    t.pass();
  });
}
