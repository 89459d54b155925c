import { createHash } from 'node:crypto';
import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { engineOn, freshSchema, openStore, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const DAY = 86_400_000;

/** Key servers (engines with stores of their own) on one PostgreSQL schema, on one clock. */
async function engines(t: Parameters<typeof engineOn>[0], count: number) {
  const schema = freshSchema();
  const clock = new ManualClock();
  const all = [];
  for (let i = 0; i < count; i += 1) all.push(await engineOn(t, await openStore('postgres', postgres, schema), clock));
  const { alice } = await tokensFor(all[0]!.engine, all[0]!.store, ['alice']);
  return { all, clock, alice: alice! };
}

if (postgres.url === undefined) {
  skipAll('postgres: scheduled rotation across key servers', postgres.reason!);
} else {
  test('key servers on one PostgreSQL store sweeping at once rotate each due key exactly once', async (t) => {
    const { all, clock, alice } = await engines(t, 3);
    const [first] = all;
    const ttags: string[] = [];
    for (let i = 0; i < 4; i += 1)
      ttags.push((await first!.engine.atomically(() => first!.engine.keys.generate(alice, { keyLen: 16, rotationPeriod: 'P1D' }))).ttag);
    clock.advance(DAY);
    const sweeps = await Promise.all(all.map(({ engine }) => engine.rotateDue()));
    const rotated = sweeps.flatMap((sweep) => sweep.rotated).sort();
    t.deepEqual(rotated, [...ttags].sort(), 'each key once, by one key server or another');
    t.deepEqual(
      sweeps.flatMap((sweep) => sweep.failed),
      [],
    );
    for (const ttag of ttags) t.is((await first!.engine.keys.view(alice, ttag)).version, 2);
  });

  test('a rotation retried through another key server under the same Idempotency-Key adds one version', async (t) => {
    const { all, alice } = await engines(t, 2);
    const [one, two] = all;
    const { ttag } = await one!.engine.atomically(() => one!.engine.keys.generate(alice, { keyLen: 16 }));
    const claim = {
      key: 'rotate-after-failover',
      fingerprint: createHash('sha256').update(`POST /api/keys/${ttag}/rotate\n{}`).digest('base64url'),
    };
    const answers = await Promise.all(
      [one, two, one, two].map((server) => server!.engine.atomically(() => server!.engine.keys.rotate(alice, ttag, claim))),
    );
    t.true(answers.every((answer) => answer.version === 2));
    t.is((await two!.engine.keys.view(alice, ttag)).version, 2);
  });
}
