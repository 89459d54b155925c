import { createHash } from 'node:crypto';
import test from 'ava';
import { codeOf, engineOn, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const DAY = 86_400_000;
const fingerprint = (path: string) => createHash('sha256').update(`POST ${path}\n{}`).digest('base64url');

for (const kind of STORE_KINDS) {
  if (kind === 'postgres' && postgres.url === undefined) {
    skipAll('postgres: idempotent rotation', postgres.reason!);
    continue;
  }

  test(`${kind}: a retried rotation under the same Idempotency-Key answers the first view and adds no version; another request is IDEMPOTENCY_KEY_REUSED`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    const other = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    const claim = { key: 'rotate-once', fingerprint: fingerprint(`/api/keys/${ttag}/rotate`) };
    const first = await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim));
    clock.advance(DAY - 1);
    t.deepEqual(await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim)), first);
    t.is((await engine.keys.view(alice!, ttag)).version, 2);
    const reused = { key: 'rotate-once', fingerprint: fingerprint(`/api/keys/${other.ttag}/rotate`) };
    t.is(await codeOf(() => engine.atomically(() => engine.keys.rotate(alice!, other.ttag, reused))), 'IDEMPOTENCY_KEY_REUSED');
    t.is((await engine.keys.view(alice!, other.ttag)).version, 1);
    const created = { key: 'rotate-once', fingerprint: claim.fingerprint };
    t.is(
      await codeOf(() => engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }, created))),
      'IDEMPOTENCY_KEY_REUSED',
      'one key, one operation',
    );
    clock.advance(1);
    t.is((await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim))).version, 3, 'free again after 24 hours');
  });

  test(`${kind}: a replayed rotation is still authorized first: a caller without the right learns nothing from another's record`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice, bob } = await tokensFor(engine, store, ['alice', 'bob']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    const claim = { key: 'rotate-payroll', fingerprint: fingerprint(`/api/keys/${ttag}/rotate`) };
    await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim));
    t.is(await codeOf(() => engine.atomically(() => engine.keys.rotate(bob!, ttag, claim))), 'ACL_DENIED');
  });

  test(`${kind}: a rotation's idempotency record keeps the version it made, not the view: records stay small, and a replay rebuilds the first answer`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    const claim = (n: number) => ({ key: `rotate-${n}`, fingerprint: fingerprint(`/api/keys/${ttag}/rotate`) });
    const first = await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim(1)));
    for (let n = 2; n <= 40; n += 1) await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim(n)));
    const principalId = (await store.principalByName('alice'))!.principalId;
    const sizes = await Promise.all(
      [1, 20, 40].map(async (n) => (await store.idempotencyRecord(principalId, `rotate-${n}`))!.answer.length),
    );
    t.true(
      sizes.every((size) => size < 100),
      `records of ${sizes.join(', ')} characters, the 40th as small as the first`,
    );
    const replay = await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim(1)));
    t.deepEqual(replay, first, 'the replay answers the view the first rotation answered');
    t.is((await engine.keys.view(alice!, ttag)).version, 41);
  });

  test(`${kind}: a replayed rotation onto a key expired since is KEY_EXPIRED, never a view of an expired key`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    const claim = { key: 'rotate-then-expire', fingerprint: fingerprint(`/api/keys/${ttag}/rotate`) };
    await engine.atomically(() => engine.keys.rotate(alice!, ttag, claim));
    await engine.atomically(() => engine.keys.expire(alice!, ttag));
    t.is(await codeOf(() => engine.atomically(() => engine.keys.rotate(alice!, ttag, claim))), 'KEY_EXPIRED');
  });

  test(`${kind}: a key holds at most maxKeyVersions versions: the next rotation is KEY_VERSIONS_EXHAUSTED, by hand and by schedule`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres), undefined, { maxKeyVersions: 3 });
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1D' }));
    t.is((await engine.atomically(() => engine.keys.rotate(alice!, ttag))).version, 2);
    t.is((await engine.atomically(() => engine.keys.rotate(alice!, ttag))).version, 3);
    t.is(await codeOf(() => engine.atomically(() => engine.keys.rotate(alice!, ttag))), 'KEY_VERSIONS_EXHAUSTED');
    clock.advance(DAY);
    t.deepEqual(await engine.rotateDue(), { rotated: [], failed: [ttag] });
    t.is((await engine.keys.view(alice!, ttag)).version, 3);
  });
}
