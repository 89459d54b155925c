import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { requestBudget, WaitBudget, withinBudget, withinRequest } from '../../../src/adapters/request-budget/request-budget.js';

const expired = () => new Error('out of time');

test('the calls of one request draw on one budget per dependency; another request has its own', async (t) => {
  await withinRequest(async () => {
    const first = requestBudget('audit', 200);
    t.is(requestBudget('audit', 200), first);
    t.not(requestBudget('keyServer', 200), first);
    await t.throwsAsync(
      withinBudget(first, () => sleep(1_000), expired),
      { message: 'out of time' },
    );
    t.true(first.leftMs() <= 0);
    let started = false;
    const reachDependency = () => {
      started = true;
      return sleep(1_000);
    };
    const next = withinBudget(requestBudget('audit', 200), reachDependency, expired);
    // At once: refused before any timer could fire (a setImmediate runs after the promise jobs).
    const settled = await Promise.race([
      next.then(
        () => 'answered',
        () => 'refused',
      ),
      new Promise((turn) => setImmediate(() => turn('waited'))),
    ]);
    t.is(settled, 'refused', 'a spent budget refuses the next call at once');
    t.false(started, 'the refused call never reaches the dependency');
    await t.throwsAsync(next, { message: 'out of time' });
    await withinRequest(async () => t.is(requestBudget('audit', 200).leftMs(), 200));
  });
});

test('a call that runs out of time spends the whole budget, whatever its clock shows', async (t) => {
  // The deadline is a process timer; the budget's clock (manual here) has not moved at all.
  const budget = new WaitBudget(50, new ManualClock());
  await t.throwsAsync(
    withinBudget(budget, () => new Promise<never>(() => undefined), expired),
    { message: 'out of time' },
  );
  t.true(budget.leftMs() <= 0, `left ${budget.leftMs()} ms`);
});

test('outside a request every call has a budget of its own', (t) => {
  t.not(requestBudget('audit', 100), requestBudget('audit', 100));
});

test('overlapping waits count their common time once; time between waits is not counted', async (t) => {
  const clock = new ManualClock();
  const budget = new WaitBudget(1_000, clock);
  const waits = Promise.all([withinBudget(budget, () => clock.sleep(100), expired), withinBudget(budget, () => clock.sleep(100), expired)]);
  clock.advance(100);
  await waits;
  clock.advance(200);
  const left = budget.leftMs();
  t.true(left > 500 && left <= 900, `left ${left} ms`);
  t.is(left, 900, 'the 100 ms both waits shared count once, the 200 ms after them not at all');
  t.false(budget.reached);
  budget.markReached();
  t.true(budget.reached);
});

test('a wait still running counts up to now, and only from when the first overlapping wait began', (t) => {
  const clock = new ManualClock();
  const budget = new WaitBudget(1_000, clock);
  clock.advance(50);
  const endFirst = budget.startWait();
  clock.advance(30);
  const endSecond = budget.startWait();
  t.is(budget.leftMs(), 970);
  endFirst();
  clock.advance(20);
  t.is(budget.leftMs(), 950);
  endSecond();
  endSecond();
  clock.advance(500);
  t.is(budget.leftMs(), 950, 'an answer ends its wait once, however often it is called');
});
