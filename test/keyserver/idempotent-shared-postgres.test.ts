import { createHash } from 'node:crypto';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { engineOn, freshSchema, openStore, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const claim = {
  key: 'create-after-timeout',
  fingerprint: createHash('sha256').update('POST /api/keys\n{"keyLen":16}').digest('base64url'),
};
const NEW_KEY = { keyLen: 16, rotationPeriod: 'P7D' } as const;

/** Two key servers (engines with stores of their own) on one PostgreSQL schema, on one clock. */
async function twoEngines(t: Parameters<typeof engineOn>[0]) {
  const schema = freshSchema();
  const clock = new ManualClock();
  const one = await engineOn(t, await openStore('postgres', postgres, schema), clock);
  const two = await engineOn(t, await openStore('postgres', postgres, schema), clock);
  const { alice } = await tokensFor(one.engine, one.store, ['alice']);
  return { one, two, alice: alice! };
}

if (postgres.url === undefined) {
  skipAll('postgres: idempotency across key servers', postgres.reason!);
} else {
  test('a retry through another key server on the same PostgreSQL store answers the first key and creates nothing', async (t) => {
    const { one, two, alice } = await twoEngines(t);
    const first = await one.engine.atomically(() => one.engine.keys.generate(alice, NEW_KEY, claim));
    const retry = await two.engine.atomically(() => two.engine.keys.generate(alice, NEW_KEY, claim));
    t.deepEqual(retry, { ...first, replayed: true }, 'the retry answers the first key, and says it replayed');
    t.false(first.replayed);
    t.deepEqual(await two.store.scheduledKeys(), [first.ttag]);
  });

  test('first requests racing on two key servers with the same Idempotency-Key create exactly one key, and all answer it', async (t) => {
    const { one, two, alice } = await twoEngines(t);
    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two));
    const answers = await Promise.all(attempts.map(({ engine }) => engine.atomically(() => engine.keys.generate(alice, NEW_KEY, claim))));
    const keys = await one.store.scheduledKeys();
    t.is(keys.length, 1);
    t.deepEqual(
      answers.map((answer) => answer.ttag),
      attempts.map(() => keys[0]),
    );
  });
}
