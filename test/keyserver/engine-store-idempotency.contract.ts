import test from 'ava';
import type { IdempotencyRow } from '../../src/keyserver/engine/engine-model.js';
import type { EngineStoreFactory } from './engine-store.contract.js';

const DAY = 86_400_000;

function record(key: string, extra: Partial<IdempotencyRow> = {}): IdempotencyRow {
  return {
    principalId: 'a1a1a1a1a1a1a1a1',
    key,
    operation: 'generateKey',
    fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
    answer: '{"ttag":"dGFn"}',
    createdAt: 1_700_000_000_000,
    ...extra,
  };
}

/** The idempotency records of the EngineStore contract (engine-store.port.ts), run against one store. */
export function engineStoreIdempotencyContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  test(title('keeps an idempotency record per caller and key, and replaces it on a later put'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    const first = record('retry-me');
    const other = record('retry-me', { principalId: 'b2b2b2b2b2b2b2b2', answer: '{"ttag":"b3Ro"}' });
    await store.putIdempotencyRecord(first);
    await store.putIdempotencyRecord(other);
    t.deepEqual(await store.idempotencyRecord(first.principalId, 'retry-me'), first);
    t.deepEqual(await store.idempotencyRecord(other.principalId, 'retry-me'), other);
    t.is(await store.idempotencyRecord(first.principalId, 'another'), undefined);
    const later = record('retry-me', {
      operation: 'rotateKey',
      fingerprint: 'x'.repeat(43),
      answer: '{}',
      createdAt: first.createdAt + DAY,
    });
    await store.putIdempotencyRecord(later);
    t.deepEqual(await store.idempotencyRecord(first.principalId, 'retry-me'), later);
  });

  test(title('drops the idempotency records created at or before a time, and answers how many went'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    await store.putIdempotencyRecord(record('old', { createdAt: 1000 }));
    await store.putIdempotencyRecord(record('edge', { createdAt: 2000 }));
    await store.putIdempotencyRecord(record('new', { createdAt: 3000 }));
    t.is(await store.deleteIdempotencyRecords(2000), 2);
    t.is(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'old'), undefined);
    t.is(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'edge'), undefined);
    t.is((await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'new'))?.createdAt, 3000);
  });

  test(title("drops one caller's record under one key, and no other"), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    await store.putIdempotencyRecord(record('undone'));
    await store.putIdempotencyRecord(record('kept'));
    await store.putIdempotencyRecord(record('undone', { principalId: 'b2b2b2b2b2b2b2b2' }));
    await store.atomically(() => store.deleteIdempotencyRecord('a1a1a1a1a1a1a1a1', 'undone'));
    await store.deleteIdempotencyRecord('a1a1a1a1a1a1a1a1', 'never-put');
    t.is(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'undone'), undefined);
    t.deepEqual(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'kept'), record('kept'));
    t.deepEqual(await store.idempotencyRecord('b2b2b2b2b2b2b2b2', 'undone'), record('undone', { principalId: 'b2b2b2b2b2b2b2b2' }));
  });

  test(title('an idempotency record written in a unit is read back within the unit and after it'), async (t) => {
    const store = await make();
    t.teardown(() => store.close());
    await store.atomically(async () => {
      await store.putIdempotencyRecord(record('with-key'));
      t.deepEqual(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'with-key'), record('with-key'));
    });
    t.deepEqual(await store.idempotencyRecord('a1a1a1a1a1a1a1a1', 'with-key'), record('with-key'));
  });
}
