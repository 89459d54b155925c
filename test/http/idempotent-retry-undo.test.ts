import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { type ApiSession, bearer, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { FaultyKeyServer } from '../_support/faulty-key-server.js';
import type { TestGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, startWrappedStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/**
 * docs/spec.md §4.22 item 7 and §9.2: a retried `POST /api/keys` never destroys a key. Only a key the
 * request itself made is undone when its record cannot be stored; an undone creation is not replayed;
 * a replay never answers a key in a state the first answer did not have.
 */

const create = (gw: TestGateway, session: ApiSession, idempotencyKey: string) =>
  gw.call('POST', '/api/keys', {
    headers: { ...bearer(session.sessionId), 'Idempotency-Key': idempotencyKey },
    body: { label: 'invoices' },
  });

/** The key's state as its owner reads it, once it is `wanted` or after a bounded wait (the undo runs after the answer). */
async function stateOnceSettled(session: ApiSession, ttag: string, wanted: string): Promise<string> {
  let state = '';
  for (let round = 0; round < 20; round += 1) {
    state = (await session.get(`/api/keys/${pathTtag(ttag)}`)).body.state;
    if (state === wanted) break;
    await sleep(50);
  }
  return state;
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a replay whose audit record fails leaves the first request's key alive, and a further retry answers it usable`,
    async (t) => {
      const audit = new FaultyAuditLog(new MemoryAuditLog());
      const gw = await startStoreGateway(t, store, { auditLog: audit });
      const alice = await signIn(gw, 'alice');
      const first = await create(gw, alice, 'order-1');
      t.is(first.status, 201, first.text);

      audit.faults.failComplete = true;
      const replay = await create(gw, alice, 'order-1');
      t.is(replay.status, 503, replay.text);
      audit.faults.failComplete = false;
      t.is(
        await stateOnceSettled(alice, first.body.ttag, 'expired'),
        'active',
        "the replay's failed record did not undo the first request's key",
      );

      const again = await create(gw, alice, 'order-1');
      t.like(again, { status: 201, body: { ttag: first.body.ttag, state: 'active' } });
      const exported = await alice.post(`/api/keys/${pathTtag(first.body.ttag)}/export`, { clientPubKey: clientKeyPair().publicKey });
      t.is(exported.status, 200, exported.text);
    },
  );

  check(`${store}: a creation undone because its record failed is forgotten: the retry creates a fresh usable key`, async (t) => {
    const audit = new FaultyAuditLog(new MemoryAuditLog());
    const gw = await startStoreGateway(t, store, { auditLog: audit });
    const alice = await signIn(gw, 'alice');
    audit.faults.failComplete = true;
    const refused = await create(gw, alice, 'order-2');
    t.is(refused.status, 503, refused.text);
    audit.faults.failComplete = false;
    const undone = audit.refusedCompletions[0]?.object;
    if (undone === undefined) return t.fail('the refused completion named the key made');
    t.is(await stateOnceSettled(alice, undone, 'expired'), 'expired', 'the key made without its record is undone');

    const retried = await create(gw, alice, 'order-2');
    t.is(retried.status, 201, retried.text);
    t.not(retried.body.ttag, undone, 'the undone key is not replayed');
    t.is(retried.body.state, 'active');
    t.like(await create(gw, alice, 'order-2'), { status: 201, body: { ttag: retried.body.ttag, state: 'active' } });
  });

  check(`${store}: a replay answered between a failed first record and its undo keeps its key active, usable and named`, async (t) => {
    const audit = new FaultyAuditLog(new MemoryAuditLog());
    let faulty: FaultyKeyServer | undefined;
    const gw = await startWrappedStoreGateway(t, store, (inner) => (faulty = new FaultyKeyServer(inner)), { auditLog: audit });
    if (faulty === undefined) return t.fail('the key server was not wrapped');
    let release = () => {};
    faulty.faults.holdWithdrawals = new Promise<void>((resolve) => {
      release = resolve;
    });
    const alice = await signIn(gw, 'alice');
    audit.faults.failComplete = true;
    const refused = await create(gw, alice, 'order-4');
    t.is(refused.status, 503, refused.text);
    audit.faults.failComplete = false;
    const made = audit.refusedCompletions[0]?.object;
    if (made === undefined) return t.fail('the refused completion named the key made');

    // The first request's undo is held; the retry is answered before it runs.
    const replay = await create(gw, alice, 'order-4');
    t.like(replay, { status: 201, body: { ttag: made, state: 'active' } });
    release();
    t.is(faulty.withdrawals.length, 1, 'the first request asked for its undo');
    await Promise.all(faulty.withdrawals);

    t.is((await alice.get(`/api/keys/${pathTtag(made)}`)).body.state, 'active', 'the key the replay answered is not expired by the undo');
    const sealed = await alice.post('/api/crypto/encrypt', { ttag: made, plaintext: Buffer.from('invoice').toString('base64') });
    t.is(sealed.status, 200, sealed.text);
    t.like(await create(gw, alice, 'order-4'), { status: 201, body: { ttag: made, state: 'active' } });
    const named = await audit.query({ object: made, limit: 100 });
    t.true(
      named.items.some((record) => record.operation === 'keys.create' && record.status === 201),
      'the audit names the key with the 201 the replay answered',
    );
  });

  check(`${store}: a replay onto a key expired since its first answer is 409 KEY_EXPIRED, never 201 with an expired key`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const first = await create(gw, alice, 'order-3');
    t.is(first.status, 201, first.text);
    t.is((await alice.post(`/api/keys/${pathTtag(first.body.ttag)}/expire`)).status, 200);
    const replay = await create(gw, alice, 'order-3');
    t.like(replay, { status: 409, body: { code: 'KEY_EXPIRED' } });
    t.false(replay.text.includes(first.body.ttag), replay.text);
  });
}
