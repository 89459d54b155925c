import test from 'ava';
import { runOperation } from '../../src/keyserver/protocol/protocol-operations.js';
import { aliceOnMemory, codeOf } from '../_support/engine-stores.js';

// The key list and tags in the engine (docs/spec.md §4.23 items 1, 2), on a store in memory.

test('a deleted key (a tombstone) keeps its tags, which no longer change (KEY_DELETED), and is listed only with state=deleted', async (t) => {
  const { engine, store, token } = await aliceOnMemory();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16 });
  await runOperation(engine, 'putKeyTag', token, { ttag, name: 'env', value: 'prod' });
  const key = (await store.key(ttag))!;
  await store.putKey({ ...key, deletedAt: key.createdAt + 1 });
  t.is(await codeOf(() => runOperation(engine, 'putKeyTag', token, { ttag, name: 'env', value: 'dev' })), 'KEY_DELETED');
  t.is(await codeOf(() => runOperation(engine, 'deleteKeyTag', token, { ttag, name: 'env' })), 'KEY_DELETED');
  t.deepEqual(await runOperation(engine, 'keyTags', token, { ttag }), { env: 'prod' });
  t.deepEqual((await runOperation(engine, 'listKeys', token, { limit: 10 })).items, [], 'left out without state');
  const tombstones = await runOperation(engine, 'listKeys', token, { limit: 10, state: 'deleted' });
  t.deepEqual(
    tombstones.items.map((item) => [item.ttag, item.state, item.tags]),
    [[ttag, 'deleted', { env: 'prod' }]],
  );
});

test('a key pending deletion is listed with state=pending-deletion and its tags still change', async (t) => {
  const { engine, store, clock, token } = await aliceOnMemory();
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16 });
  await store.putKey({ ...(await store.key(ttag))!, deletionAt: clock.now() + 86_400_000 });
  t.deepEqual(
    (await runOperation(engine, 'listKeys', token, { limit: 10, state: 'pending-deletion' })).items.map((item) => item.ttag),
    [ttag],
  );
  t.deepEqual(await runOperation(engine, 'putKeyTag', token, { ttag, name: 'env', value: 'dev' }), { name: 'env', value: 'dev' });
});

test('a delegated token lists the keys of the principal it acts for, not the service’s', async (t) => {
  const { engine, store, alice, token } = await aliceOnMemory();
  await engine.createPrincipal({ name: 'svc', kind: 'service', roles: ['service'] });
  await store.putPrincipal({ ...(await store.principalByName('svc'))!, delegates: ['alice'] });
  const svc = (await store.principalByName('svc'))!;
  const { ttag } = await runOperation(engine, 'generateKey', token, { keyLen: 16 });
  await runOperation(engine, 'generateKey', (await engine.issueToken(svc)).token, { keyLen: 16 });
  const delegated = (await engine.issueToken(alice, { actingFor: 'svc' })).token;
  t.deepEqual(
    (await runOperation(engine, 'listKeys', delegated, { limit: 10 })).items.map((item) => item.ttag),
    [ttag],
  );
});
