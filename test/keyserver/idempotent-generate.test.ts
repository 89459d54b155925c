import { createHash } from 'node:crypto';
import test from 'ava';
import { codeOf, engineOn, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const DAY = 86_400_000;
const fingerprint = (body: string) => createHash('sha256').update(`POST /api/keys\n${body}`).digest('base64url');
const FIRST = fingerprint('{"keyLen":16,"rotationPeriod":"P30D"}');
const OTHER = fingerprint('{"keyLen":32,"rotationPeriod":"P30D"}');
/** Every test key carries a rotation period, so the store's scheduled keys count them. */
const NEW_KEY = { keyLen: 16, rotationPeriod: 'P30D' } as const;

for (const kind of STORE_KINDS) {
  if (kind === 'postgres' && postgres.url === undefined) {
    skipAll('postgres: idempotent key creation', postgres.reason!);
    continue;
  }

  test(`${kind}: a retry of a key creation with the same Idempotency-Key and request answers the first key and creates nothing`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const claim = { key: 'create-payroll-1', fingerprint: FIRST };
    const first = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim));
    const retry = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim));
    t.deepEqual(first, { ttag: first.ttag, replayed: false });
    t.deepEqual(retry, { ttag: first.ttag, replayed: true }, 'the retry says it replayed: it made nothing to undo');
    t.deepEqual(await store.scheduledKeys(), [first.ttag]);
  });

  test(`${kind}: the same Idempotency-Key with another request is IDEMPOTENCY_KEY_REUSED, and creates nothing`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const first = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, { key: 'k-1', fingerprint: FIRST }));
    const reused = await codeOf(() =>
      engine.atomically(() => engine.keys.generate(alice!, { ...NEW_KEY, keyLen: 32 }, { key: 'k-1', fingerprint: OTHER })),
    );
    t.is(reused, 'IDEMPOTENCY_KEY_REUSED');
    t.deepEqual(await store.scheduledKeys(), [first.ttag]);
  });

  test(`${kind}: an Idempotency-Key is free again after 24 hours by the engine's clock, and the sweep forgets it`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const claim = { key: 'daily', fingerprint: FIRST };
    const first = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim));
    clock.advance(DAY - 1);
    t.deepEqual(
      await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim)),
      { ...first, replayed: true },
      'still within the window',
    );
    t.is(await engine.sweepIdempotencyRecords(), 0);
    clock.advance(1);
    t.is(await engine.sweepIdempotencyRecords(), 1);
    const later = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim));
    t.not(later.ttag, first.ttag);
    t.is((await store.scheduledKeys()).length, 2);
  });

  test(`${kind}: Idempotency-Keys are per caller: another caller's same key creates its own key`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice, bob } = await tokensFor(engine, store, ['alice', 'bob']);
    const claim = { key: 'shared-name', fingerprint: FIRST };
    const mine = await engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim));
    const theirs = await engine.atomically(() => engine.keys.generate(bob!, NEW_KEY, claim));
    t.not(theirs.ttag, mine.ttag);
    t.is(await codeOf(() => engine.keys.view(bob!, mine.ttag)), 'ACL_DENIED');
  });

  test(`${kind}: a malformed Idempotency-Key or fingerprint is BAD_REQUEST, and creates nothing`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    for (const claim of [
      { key: '', fingerprint: FIRST },
      { key: 'has space', fingerprint: FIRST },
      { key: 'x'.repeat(256), fingerprint: FIRST },
      { key: 'caf\u00e9', fingerprint: FIRST },
      { key: 'ok', fingerprint: 'not-a-digest' },
    ]) {
      t.is(await codeOf(() => engine.atomically(() => engine.keys.generate(alice!, NEW_KEY, claim))), 'BAD_REQUEST', claim.key);
    }
    t.deepEqual(await store.scheduledKeys(), []);
  });
}
