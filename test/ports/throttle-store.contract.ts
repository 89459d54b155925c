import test from 'ava';
import type { ThrottleStore } from '../../src/ports/throttle-store.port.js';

/** The ThrottleStore contract (src/ports/throttle-store.port.ts), run against every adapter. */
export function throttleStoreContract(name: string, open: () => Promise<ThrottleStore>): void {
  const start = async (t: { teardown(fn: () => Promise<void>): void }) => {
    const store = await open();
    t.teardown(() => store.close());
    return store;
  };

  test(`${name} throttle store: failures count up inside the window and start again after it`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    t.deepEqual(await store.failures(['name:alice']), [undefined]);
    t.deepEqual(await store.fail('name:alice', now, 900_000), { count: 1, lastAt: now });
    t.deepEqual(await store.fail('name:alice', now + 10, 900_000), { count: 2, lastAt: now + 10 });
    t.deepEqual(await store.failures(['name:alice', 'name:bob']), [{ count: 2, lastAt: now + 10 }, undefined]);
    t.deepEqual(await store.fail('name:alice', now + 10 + 900_000, 900_000), { count: 1, lastAt: now + 10 + 900_000 });
    await store.reset('name:alice');
    t.deepEqual(await store.failures(['name:alice']), [undefined]);
  });

  test(`${name} throttle store: concurrent failures of one key all count`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    const results = await Promise.all(Array.from({ length: 20 }, () => store.fail('addr:192.0.2.1', now, 900_000)));
    t.deepEqual(
      results.map((r) => r.count).sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  test(`${name} throttle store: the keys of one name from two addresses, and of the name alone, count apart`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    const keys = ['pair:2001:db8::1|admin', 'pair:2001:db8::2|admin', 'name:admin'];
    await store.fail(keys[0]!, now, 900_000);
    await store.fail(keys[0]!, now, 900_000);
    await store.fail(keys[2]!, now, 900_000);
    t.deepEqual(await store.failures(keys), [{ count: 2, lastAt: now }, undefined, { count: 1, lastAt: now }]);
    await store.reset(keys[2]!);
    t.deepEqual(await store.failures(keys), [{ count: 2, lastAt: now }, undefined, undefined]);
  });

  test(`${name} throttle store: hits count per one-second slot`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    t.is(await store.hit('rate:192.0.2.1', now), 1);
    t.is(await store.hit('rate:192.0.2.1', now + 999), 2);
    t.is(await store.hit('rate:192.0.2.2', now + 999), 1);
    t.is(await store.hit('rate:192.0.2.1', now + 1000), 1);
  });

  test(`${name} throttle store: reservations taken at once each see a different number ahead, and read the failures`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    await store.fail('pair:192.0.2.1|alice', now, 900_000);
    const held = await Promise.all(
      Array.from({ length: 12 }, () => store.reserve(['addr:192.0.2.1', 'pair:192.0.2.1|alice'], now, 60_000)),
    );
    t.deepEqual(
      held.map((reservation) => reservation.ahead[0]).sort((a, b) => a! - b!),
      Array.from({ length: 12 }, (_, i) => i),
    );
    t.deepEqual(
      held.map((reservation) => reservation.ahead[0]),
      held.map((reservation) => reservation.ahead[1]),
    );
    for (const reservation of held) t.deepEqual(reservation.records, [undefined, { count: 1, lastAt: now }]);
    t.is(new Set(held.map((reservation) => reservation.id)).size, 12);
  });

  test(`${name} throttle store: a released place, or one held past its time, no longer counts`, async (t) => {
    const store = await start(t);
    const now = 1_700_000_000_000;
    const first = await store.reserve(['addr:192.0.2.9'], now, 60_000);
    const second = await store.reserve(['addr:192.0.2.9'], now, 60_000);
    t.deepEqual(second.ahead, [1]);
    await store.release(first);
    await store.release(first);
    t.deepEqual((await store.reserve(['addr:192.0.2.9'], now + 1, 60_000)).ahead, [1], 'the second and this one');
    t.deepEqual((await store.reserve(['addr:192.0.2.9'], now + 60_000, 60_000)).ahead, [1], 'only the one taken at now + 1 is still held');
    await store.release(second);
  });
}
