import test from 'ava';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';

test('a sleep on the manual clock wakes only once the clock is moved to its end', async (t) => {
  const clock = new ManualClock(1_000);
  let woke = false;
  const sleeping = clock.sleep(500).then(() => {
    woke = true;
  });
  t.is(clock.nextWake(), 1_500);
  clock.advance(499);
  await Promise.resolve();
  t.false(woke);
  clock.advance(1);
  await sleeping;
  t.true(woke);
  t.is(clock.nextWake(), undefined);
});

test('a sleep of nothing resolves at once; setting the clock wakes every sleep it passes', async (t) => {
  const clock = new ManualClock(0);
  await clock.sleep(0);
  const woken: number[] = [];
  const sleeps = [300, 100, 200].map((ms) => clock.sleep(ms).then(() => woken.push(ms)));
  t.is(clock.nextWake(), 100);
  clock.set(250);
  await Promise.all(sleeps.slice(1));
  t.deepEqual(woken.sort(), [100, 200]);
  t.is(clock.nextWake(), 300);
  clock.advance(50);
  await Promise.all(sleeps);
  t.deepEqual(woken.sort(), [100, 200, 300]);
});

test("a periodic task's wait is woken by moving the clock, but nextWake names only the waits of requests", async (t) => {
  const clock = new ManualClock(0);
  let swept = false;
  const sweep = clock.sleep(60_000, { background: true }).then(() => {
    swept = true;
  });
  t.is(clock.nextWake(), undefined, 'nothing a request waits for');
  const delay = clock.sleep(1_000);
  t.is(clock.nextWake(), 1_000);
  clock.advance(1_000);
  await delay;
  t.is(clock.nextWake(), undefined);
  t.false(swept);
  clock.advance(59_000);
  await sweep;
  t.true(swept);
});
