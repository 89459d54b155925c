import test from 'ava';
import { MAX_NAME_DELAY_MS, nameDelayMs } from '../../src/domain/throttle/name-delay.js';

const policy = { limit: 5, windowMs: 900_000 };
const now = 1_700_000_000_000;

const cases: [string, { count: number; lastAt: number } | undefined, number][] = [
  ['a name that never failed', undefined, 0],
  ['below twice the per-address limit', { count: 9, lastAt: now }, 0],
  ['at twice the limit: the first delay', { count: 10, lastAt: now }, 1_000],
  ['one more failure doubles it', { count: 11, lastAt: now }, 2_000],
  ['three more', { count: 13, lastAt: now }, 8_000],
  ['never past the longest delay', { count: 14, lastAt: now }, MAX_NAME_DELAY_MS],
  ['a flood stays bounded', { count: 1_000_000, lastAt: now }, MAX_NAME_DELAY_MS],
  ['still inside the window', { count: 12, lastAt: now - 899_999 }, 4_000],
  ['a record idle for the window counts for nothing', { count: 50, lastAt: now - 900_000 }, 0],
];

for (const [title, record, expected] of cases) {
  test(`name delay: ${title}`, (t) => {
    t.is(nameDelayMs(record, policy, now), expected);
  });
}
