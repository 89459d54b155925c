import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { KeyServerEngine } from '../../src/keyserver/engine/engine.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { MemoryEngineStore } from '../../src/keyserver/store/memory-engine-store.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { startTestPostgres } from '../_support/postgres.js';
import { SeededRandom } from '../_support/seeded-random.js';
import { skipAll } from '../_support/skip.js';

/** The key-version rules of the engine, on a store in memory and on PostgreSQL (each test a schema of its own). */
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const keyring = new MasterKeyring([generateMasterKey()]);
let schemas = 0;

type Open = () => Promise<EngineStore>;
const STORES: readonly (readonly [string, Open | undefined])[] = [
  ['memory', async () => new MemoryEngineStore()],
  [
    'postgres',
    postgres.url === undefined
      ? undefined
      : () => PostgresEngineStore.open({ url: postgres.url!, keyring, schema: `versions_${++schemas}` }),
  ],
];

async function engineOn(store: EngineStore, clock = new ManualClock(1_700_000_000_000)) {
  const engine = new KeyServerEngine({ store, now: () => clock.now(), random: new SeededRandom() });
  const tokens: Record<string, string> = {};
  for (const name of ['alice', 'bob']) {
    await engine.createPrincipal({ name, kind: 'user' });
    tokens[name] = (await engine.issueToken((await store.principalByName(name))!)).token;
  }
  return { engine, clock, tokens: tokens as { alice: string; bob: string } };
}

async function codeOf(run: Promise<unknown>): Promise<string | undefined> {
  try {
    await run;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

for (const [name, open] of STORES) {
  const title = (behaviour: string) => `${name}: ${behaviour}`;
  if (open === undefined) {
    skipAll(title('key versions'), postgres.reason!);
    continue;
  }

  test(title('a rotation adds a version of the same length dated by the engine clock; the view lists every version'), async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const { engine, clock, tokens } = await engineOn(store);
    const { ttag } = await runOperation(engine, 'generateKey', tokens.alice, { keyLen: 24 });
    clock.advance(86_400_000);
    const view = await runOperation(engine, 'rotateKey', tokens.alice, { ttag });
    t.is(view.version, 2);
    t.deepEqual(view.versions, [
      { version: 1, createdAt: '2023-11-14T22:13:20.000Z', state: 'active' },
      { version: 2, createdAt: '2023-11-15T22:13:20.000Z', state: 'active' },
    ]);
    const exported = await runOperation(engine, 'exportKey', tokens.alice, { ttag });
    t.is(exported.version, 2);
    t.is(exported.key.length, 24);
    t.false('rotationPeriod' in view);
  });

  test(title('a scoped token rotates only with rotate in its scope; the minimum version stays the owner’s, unscoped'), async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const { engine, tokens } = await engineOn(store);
    const { ttag } = await runOperation(engine, 'generateKey', tokens.alice, { keyLen: 16 });
    const alice = (await store.principalByName('alice'))!;
    const encryptOnly = (await engine.issueToken(alice, { scope: { [ttag]: ['encrypt'] } })).token;
    const rotating = (await engine.issueToken(alice, { scope: { [ttag]: ['rotate'] } })).token;
    t.is(await codeOf(runOperation(engine, 'rotateKey', encryptOnly, { ttag })), 'OUT_OF_SCOPE');
    t.is((await runOperation(engine, 'rotateKey', rotating, { ttag })).version, 2);
    t.is(await codeOf(runOperation(engine, 'setMinVersion', rotating, { ttag, minVersion: 2 })), 'OUT_OF_SCOPE');
    t.is((await runOperation(engine, 'setMinVersion', tokens.alice, { ttag, minVersion: 2 })).minVersion, 2);
  });

  test(
    title('rotations and minimum-version raises that race each land once: versions stay consecutive, the minimum at the highest asked'),
    async (t) => {
      const store = await open();
      t.teardown(() => store.close());
      const { engine, tokens } = await engineOn(store);
      const { ttag } = await runOperation(engine, 'generateKey', tokens.alice, { keyLen: 32 });
      const views = await Promise.all(Array.from({ length: 6 }, () => runOperation(engine, 'rotateKey', tokens.alice, { ttag })));
      t.deepEqual(views.map((view) => view.version).sort(), [2, 3, 4, 5, 6, 7]);
      const view = await runOperation(engine, 'readKey', tokens.alice, { ttag });
      t.deepEqual(
        view.versions.map((v) => v.version),
        [1, 2, 3, 4, 5, 6, 7],
      );
      const raised = await Promise.allSettled(
        [3, 5, 4].map((minVersion) => runOperation(engine, 'setMinVersion', tokens.alice, { ttag, minVersion })),
      );
      t.true(raised.some((outcome) => outcome.status === 'fulfilled'));
      t.is(
        (await runOperation(engine, 'readKey', tokens.alice, { ttag })).minVersion,
        5,
        'whatever the order, the minimum ends at the highest',
      );
    },
  );

  test(title('a batch takes the token and role once, and refuses more than 1,000 items as a whole'), async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const { engine, tokens } = await engineOn(store);
    const { ttag } = await runOperation(engine, 'generateKey', tokens.alice, { keyLen: 16 });
    const item = { ttag, plaintext: 'aGk=' };
    t.is(await codeOf(runOperation(engine, 'cryptoBatch', 'not-a-token', { operation: 'encrypt', items: [item] })), 'SESSION_EXPIRED');
    t.is(
      await codeOf(runOperation(engine, 'cryptoBatch', tokens.alice, { operation: 'encrypt', items: Array(1001).fill(item) })),
      'BAD_REQUEST',
    );
    const outcomes = await runOperation(engine, 'cryptoBatch', tokens.alice, { operation: 'encrypt', items: Array(1000).fill(item) });
    t.is(outcomes.length, 1000);
    t.true(outcomes.every((outcome) => outcome.ok));
    const mixed = await runOperation(engine, 'cryptoBatch', tokens.alice, {
      operation: 'encrypt',
      items: [item, { ttag, plaintext: 'not base64!' }, { ttag, plaintext: Buffer.from('hi') }],
    });
    t.deepEqual(
      mixed.map((outcome) => (outcome.ok ? 'ok' : outcome.code)),
      ['ok', 'BAD_REQUEST', 'ok'],
      'a wire item that is not base64 fails alone; an in-process item is bytes',
    );
    const bobs = await runOperation(engine, 'cryptoBatch', tokens.bob, {
      operation: 'decrypt',
      items: [{ ttag, ciphertext: 'AA==', iv: 'AA==', authTag: 'AA==' }],
    });
    t.deepEqual(bobs, [{ ok: false, code: 'ACL_DENIED', message: (bobs[0] as { message: string }).message }]);
  });
}
