import test from 'ava';
import { FIRST_WAIT_MS, IN_FLIGHT_WAIT_MS, retryAfterHeldMs } from '../../src/domain/throttle/throttle-policy.js';

const policy = { limit: 5, windowMs: 900_000 };
const now = 1_700_000_000_000;

// docs/spec.md §10 item 2: checks in flight count as failures to come.
const cases: [string, { count: number; lastAt: number } | undefined, number, number][] = [
  ['nothing recorded, nothing in flight', undefined, 0, 0],
  ['nothing recorded, four in flight: the fifth may run', undefined, 4, 0],
  ['nothing recorded, five in flight: the sixth waits for them', undefined, 5, IN_FLIGHT_WAIT_MS],
  ['three failures and two in flight', { count: 3, lastAt: now - 10 }, 2, IN_FLIGHT_WAIT_MS],
  ['three failures and one in flight', { count: 3, lastAt: now - 10 }, 1, 0],
  ['failures idle for the window count for nothing', { count: 4, lastAt: now - 900_000 }, 4, 0],
  ['at the limit, its wait is the recorded one', { count: 5, lastAt: now }, 0, FIRST_WAIT_MS],
  ['at the limit, wait over: one try, nothing else in flight', { count: 5, lastAt: now - FIRST_WAIT_MS }, 0, 0],
  ['at the limit, wait over: a second try waits for the first', { count: 5, lastAt: now - FIRST_WAIT_MS }, 1, IN_FLIGHT_WAIT_MS],
];

for (const [title, record, ahead, expected] of cases) {
  test(`held attempts: ${title}`, (t) => {
    t.is(retryAfterHeldMs(record, ahead, policy, now), expected);
  });
}
