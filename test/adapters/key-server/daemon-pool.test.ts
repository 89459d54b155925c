import test from 'ava';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { DaemonPool, FIRST_RETRY_MS, LONGEST_RETRY_MS } from '../../../src/adapters/key-server/daemon-pool.js';

function pool(...members: string[]) {
  const clock = new ManualClock();
  return { clock, pool: new DaemonPool(members, clock) };
}

test('routes in the configured order while every daemon serves', (t) => {
  const { pool: daemons } = pool('a', 'b', 'c');
  t.deepEqual(daemons.route(), ['a', 'b', 'c']);
  t.deepEqual(daemons.probeTargets(), ['a', 'b', 'c']);
});

test('a failed daemon goes last until its back-off has passed, then one request tries it in its place', (t) => {
  const { clock, pool: daemons } = pool('a', 'b');
  daemons.failed('a');
  t.false(daemons.isUp('a'));
  t.deepEqual(daemons.route(), ['b', 'a']);
  clock.advance(FIRST_RETRY_MS - 1);
  t.deepEqual(daemons.route(), ['b', 'a']);
  clock.advance(1);
  t.deepEqual(daemons.route(), ['a', 'b'], 'the trial');
  t.deepEqual(daemons.route(), ['b', 'a'], 'a concurrent request does not wait on the same trial');
  daemons.succeeded('a');
  t.true(daemons.isUp('a'));
  t.deepEqual(daemons.route(), ['a', 'b']);
});

test('the back-off doubles with each failure in a row, up to its bound, and a success resets it', (t) => {
  const { clock, pool: daemons } = pool('a', 'b');
  const waits: number[] = [];
  for (let i = 0; i < 8; i += 1) {
    daemons.failed('a');
    let waited = 0;
    while (daemons.route()[0] !== 'a') {
      clock.advance(250);
      waited += 250;
    }
    waits.push(waited);
  }
  t.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 16_000, LONGEST_RETRY_MS, LONGEST_RETRY_MS, LONGEST_RETRY_MS]);
  daemons.succeeded('a');
  daemons.failed('a');
  clock.advance(FIRST_RETRY_MS);
  t.is(daemons.route()[0], 'a');
});

test('when every daemon is down and waiting, all are still tried, the soonest retry first', (t) => {
  const { clock, pool: daemons } = pool('a', 'b');
  daemons.failed('b');
  clock.advance(10);
  daemons.failed('a');
  t.deepEqual(daemons.route(), ['b', 'a']);
  t.deepEqual(daemons.probeTargets(), ['a', 'b']);
});

test('health probes the serving and the due daemons only', (t) => {
  const { clock, pool: daemons } = pool('a', 'b', 'c');
  daemons.failed('b');
  t.deepEqual(daemons.probeTargets(), ['a', 'c']);
  clock.advance(FIRST_RETRY_MS);
  t.deepEqual(daemons.probeTargets(), ['a', 'b', 'c']);
});

test('a pool needs a daemon, and refuses one it does not hold', (t) => {
  t.throws(() => new DaemonPool([], new ManualClock()), { message: /at least one/ });
  t.throws(() => pool('a').pool.failed('z'), { message: /not a member/ });
});
