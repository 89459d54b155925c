import test from 'ava';
import { codeOf, engineOn, openStore, STORE_KINDS, tokensFor } from '../_support/engine-stores.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

const DAY = 86_400_000;

for (const kind of STORE_KINDS) {
  if (kind === 'postgres' && postgres.url === undefined) {
    skipAll('postgres: scheduled rotation', postgres.reason!);
    continue;
  }

  test(`${kind}: a key with rotation period P1D gets exactly one new version once a day has passed, by the engine's clock`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const created = clock.now();
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 32, rotationPeriod: 'P1D' }));
    const fresh = await engine.keys.view(alice!, ttag);
    t.is(fresh.rotationPeriod, 'P1D');
    t.is(fresh.nextRotationAt, new Date(created + DAY).toISOString());
    clock.advance(DAY - 1);
    t.deepEqual((await engine.rotateDue()).rotated, [], 'not due yet');
    clock.advance(1);
    t.deepEqual(await engine.rotateDue(), { rotated: [ttag], failed: [] });
    t.deepEqual((await engine.rotateDue()).rotated, [], 'rotated once per due period');
    const rotated = await engine.keys.view(alice!, ttag);
    t.is(rotated.version, 2);
    t.deepEqual(
      rotated.versions.map((version) => version.createdAt),
      [new Date(created).toISOString(), new Date(created + DAY).toISOString()],
    );
    t.is(rotated.nextRotationAt, new Date(created + 2 * DAY).toISOString());
    const sealed = await engine.crypto.encrypt(alice!, ttag, { plaintext: Buffer.from('hi') });
    t.is(sealed.version, 2, 'encryption moves to the new version');
  });

  test(`${kind}: a key left unswept for several periods is rotated once, and its next rotation is one period after that`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1W' }));
    const plain = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16 }));
    clock.advance(30 * DAY);
    t.deepEqual((await engine.rotateDue()).rotated, [ttag], 'a key without a period is never rotated');
    t.deepEqual((await engine.rotateDue()).rotated, []);
    const view = await engine.keys.view(alice!, ttag);
    t.is(view.version, 2);
    t.is(view.nextRotationAt, new Date(clock.now() + 7 * DAY).toISOString());
    t.is((await engine.keys.view(alice!, plain.ttag)).nextRotationAt, undefined);
  });

  test(`${kind}: a rotation asked for restarts the period, and an expired key is not rotated`, async (t) => {
    const { engine, store, clock } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    const { ttag } = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P2D' }));
    const gone = await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'P1D' }));
    await engine.atomically(() => engine.keys.expire(alice!, gone.ttag));
    clock.advance(DAY);
    await engine.atomically(() => engine.keys.rotate(alice!, ttag));
    clock.advance(DAY + DAY / 2);
    t.deepEqual((await engine.rotateDue()).rotated, [], 'due two days after the rotation by hand, not after creation');
    clock.advance(DAY / 2);
    t.deepEqual((await engine.rotateDue()).rotated, [ttag]);
    t.is((await engine.keys.view(alice!, ttag)).version, 3);
    t.is((await engine.keys.view(alice!, gone.ttag)).version, 1);
  });

  test(`${kind}: a rotation period that is not a fixed-length ISO 8601 duration of at least one day is BAD_REQUEST`, async (t) => {
    const { engine, store } = await engineOn(t, await openStore(kind, postgres));
    const { alice } = await tokensFor(engine, store, ['alice']);
    for (const rotationPeriod of ['PT23H59M59S', 'P1M', 'P1Y', 'P', '90 days', '', 'P36500000D']) {
      t.is(
        await codeOf(() => engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod }))),
        'BAD_REQUEST',
        rotationPeriod,
      );
    }
    t.deepEqual(await store.scheduledKeys(), []);
    await engine.atomically(() => engine.keys.generate(alice!, { keyLen: 16, rotationPeriod: 'PT24H' }));
    t.is((await store.scheduledKeys()).length, 1);
  });
}
