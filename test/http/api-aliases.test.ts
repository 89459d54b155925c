import test from 'ava';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import type { TestGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.23 item 3: aliases set, moved, listed, deleted, and accepted wherever /api takes a ttag. */
const b64 = (text: string) => Buffer.from(text).toString('base64');
const ALIAS_PATH = (name: string) => `/api/keys/alias%2F${name}`;

/** Every alias name a caller's walk of GET /api/aliases lists, `limit` a page. */
async function walk(session: ApiSession, query = '', limit = 2): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const reply = await session.get(`/api/aliases?limit=${limit}${query}${cursor === undefined ? '' : `&cursor=${cursor}`}`);
    if (reply.status !== 200) throw new Error(`list aliases: ${reply.status} ${reply.text}`);
    if (reply.body.items.length > limit) throw new Error(`a page of ${reply.body.items.length} aliases for limit ${limit}`);
    names.push(...reply.body.items.map((item: { alias: string }) => item.alias));
    cursor = reply.body.next;
  } while (cursor !== undefined);
  return names;
}

/** The records of one operation, newest first, as the auditor reads them. */
async function records(gw: TestGateway, operation: string): Promise<Record<string, unknown>[]> {
  const auditor = await signIn(gw, 'audra');
  return (await auditor.get(`/api/audit?operation=${operation}`)).body.items;
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: an alias names a key wherever /api takes a ttag (path, body, batch item), and the audit names both`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice, { keyLen: 32 });

    const set = await alice.put('/api/aliases/billing', { ttag });
    t.is(set.status, 200, set.text);
    t.like(set.body, { alias: 'billing', ttag });
    t.is(set.body.createdAt, set.body.updatedAt);
    t.deepEqual((await alice.put('/api/aliases/billing', { ttag })).body, set.body, 'setting it again changes nothing');

    t.like(await alice.get(ALIAS_PATH('billing')), { status: 200, body: { ttag } });
    const sealed = await alice.post('/api/crypto/encrypt', { ttag: 'alias/billing', plaintext: b64('payroll') });
    t.is(sealed.status, 200, sealed.text);
    t.false('resolved' in sealed.body, 'the answer is the encrypt answer, nothing more');
    const opened = await alice.post('/api/crypto/decrypt', { ttag: 'alias/billing', sealed: sealed.body.sealed });
    t.like(opened, { status: 200, body: { plaintext: b64('payroll') } });
    t.like(await alice.post('/api/crypto/decrypt', { ttag, sealed: sealed.body.sealed }), {
      status: 200,
      body: { plaintext: b64('payroll') },
    });
    const client = clientKeyPair();
    const exported = await alice.post(`${ALIAS_PATH('billing')}/export`, { clientPubKey: client.publicKey });
    t.is(exported.status, 200, exported.text);
    t.false('resolved' in exported.body);
    t.is(client.unwrap(exported.body.wrapped).length, 32);
    const batch = await alice.post('/api/crypto/encrypt', {
      items: [
        { ttag: 'alias/billing', plaintext: b64('one') },
        { ttag, plaintext: b64('two') },
      ],
    });
    t.is(batch.status, 200, batch.text);
    t.deepEqual(
      batch.body.items.map((item: { ok: boolean }) => item.ok),
      [true, true],
    );
    t.false('resolved' in batch.body.items[0]);
    t.like(await alice.get(`${ALIAS_PATH('billing')}/access`), { status: 200 });
    t.like(await alice.put(`${ALIAS_PATH('billing')}/acl/bob`, { rights: ['encrypt'] }), { status: 200, body: { principal: 'bob' } });

    const encrypts = await records(gw, 'crypto.encrypt');
    t.like(
      encrypts.find((record) => record.items === undefined),
      { principal: 'alice', object: ttag, alias: 'billing', outcome: 'ok' },
    );
    const batchRecord = encrypts.find((record) => record.items === 2);
    t.like(batchRecord, { object: ttag, failures: 0 }, 'both items name one key: the alias resolved, it is the object');
    t.false('alias' in batchRecord!, 'its items name the key two ways');
    t.deepEqual(batchRecord!.keys, [{ ttag, version: 1 }], 'a batch names ttags, the alias resolved');
    const decrypts = await records(gw, 'crypto.decrypt');
    t.like(
      decrypts.find((record) => record.alias !== undefined),
      { object: ttag, alias: 'billing', version: 1, outcome: 'ok' },
    );
    t.like(
      decrypts.find((record) => record.alias === undefined),
      { object: ttag },
    );
    t.like((await records(gw, 'keys.export'))[0], { object: ttag, alias: 'billing', outcome: 'ok' });
    t.like((await records(gw, 'keys.read'))[0], { object: ttag, alias: 'billing' });
    t.like((await records(gw, 'acl.access'))[0], { object: ttag, alias: 'billing' });
    t.like((await records(gw, 'acl.put'))[0], { object: `${ttag} bob`, alias: 'billing' });
    t.like((await records(gw, 'aliases.put'))[0], { object: ttag, alias: 'billing', outcome: 'ok' });
  });

  check(`${store}: an unknown alias is 404, an alias naming an alias 400, and the root surface refuses alias/ as a bad ttag`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    t.is((await alice.put('/api/aliases/billing', { ttag })).status, 200);

    t.like(await alice.get(ALIAS_PATH('nothing')), { status: 404, body: { code: 'NOT_FOUND' } });
    t.like(await alice.post('/api/crypto/encrypt', { ttag: 'alias/nothing', plaintext: b64('x') }), {
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    const item = await alice.post('/api/crypto/mac', { items: [{ ttag: 'alias/nothing', data: b64('x') }] });
    t.like(item.body.items[0], { ok: false, error: { code: 'NOT_FOUND' } });
    t.like(await alice.put('/api/aliases/other', { ttag: 'alias/billing' }), { status: 400, body: { code: 'BAD_REQUEST' } });
    t.like(await alice.post('/api/crypto/encrypt', { ttag: 'alias/not an alias', plaintext: b64('x') }), { status: 400 });
    t.like(await alice.put('/api/aliases/-leading-dash', { ttag }), { status: 400, body: { code: 'BAD_REQUEST' } });
    t.like(await alice.del('/api/aliases/nothing'), { status: 404, body: { code: 'NOT_FOUND' } });

    const root = await gw.login('alice');
    const refused = await gw.call('POST', '/keys/export', {
      headers: { 'X-Session': root },
      body: { ttag: 'alias/billing', clientPubKey: clientKeyPair().publicKey },
    });
    const garbage = await gw.call('POST', '/keys/export', {
      headers: { 'X-Session': root },
      body: { ttag: 'not/a-ttag', clientPubKey: clientKeyPair().publicKey },
    });
    t.is(refused.status, 400);
    t.is(refused.status, garbage.status);
  });

  check(`${store}: moving an alias takes the owner of both keys; a request after the move answers the new key`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const bob = await signIn(gw, 'bob');
    const { ttag: first } = await createKey(alice);
    const { ttag: second } = await createKey(alice);
    const { ttag: bobs } = await createKey(bob);
    const set = await alice.put('/api/aliases/service-key', { ttag: first });
    t.is(set.status, 200, set.text);
    const sealed = (await alice.post('/api/crypto/encrypt', { ttag: 'alias/service-key', plaintext: b64('v1') })).body;

    t.like(await bob.put('/api/aliases/service-key', { ttag: bobs }), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await alice.put('/api/aliases/service-key', { ttag: bobs }), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await bob.del('/api/aliases/service-key'), { status: 403, body: { code: 'ACL_DENIED' } });
    t.like(await alice.get(ALIAS_PATH('service-key')), { body: { ttag: first } }, 'refused moves changed nothing');

    gw.clock.advance(1000);
    const moved = await alice.put('/api/aliases/service-key', { ttag: second });
    t.is(moved.status, 200, moved.text);
    t.like(moved.body, { alias: 'service-key', ttag: second, createdAt: set.body.createdAt });
    t.not(moved.body.updatedAt, set.body.updatedAt);
    t.like(await alice.get(ALIAS_PATH('service-key')), { status: 200, body: { ttag: second } });
    t.like(await alice.post('/api/crypto/decrypt', { ttag: 'alias/service-key', sealed: sealed.sealed }), {
      status: 400,
      body: { code: 'DECRYPT_FAILED' },
    });
    t.like(await alice.post('/api/crypto/decrypt', { ttag: first, sealed: sealed.sealed }), {
      status: 200,
      body: { plaintext: b64('v1') },
    });
    t.like((await records(gw, 'aliases.put'))[0], { object: second, alias: 'service-key', outcome: 'ok' });

    t.is((await alice.del('/api/aliases/service-key')).status, 204);
    t.like(await alice.get(ALIAS_PATH('service-key')), { status: 404, body: { code: 'NOT_FOUND' } });
    t.like(await alice.del('/api/aliases/service-key'), { status: 404 });
    const deleted = (await records(gw, 'aliases.delete')).find((record) => record.outcome === 'ok');
    t.like(deleted, { object: second, alias: 'service-key', status: 204 });
  });

  check(`${store}: GET /api/aliases lists, by name and a page at a time, the aliases of the keys the caller would see`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const bob = await signIn(gw, 'bob');
    const admin = await signIn(gw, 'admin');
    const { ttag: one } = await createKey(alice);
    const { ttag: two } = await createKey(alice);
    const { ttag: bobs } = await createKey(bob);
    for (const name of ['b-2', 'a-1', 'b-1', 'a.2', 'A0']) t.is((await alice.put(`/api/aliases/${name}`, { ttag: one })).status, 200);
    t.is((await alice.put('/api/aliases/two', { ttag: two })).status, 200);
    t.is((await bob.put('/api/aliases/bobs', { ttag: bobs })).status, 200);

    t.deepEqual(await walk(alice), ['A0', 'a-1', 'a.2', 'b-1', 'b-2', 'two']);
    t.deepEqual(await walk(bob), ['bobs']);
    t.deepEqual(await walk(admin, '', 3), ['A0', 'a-1', 'a.2', 'b-1', 'b-2', 'bobs', 'two']);
    t.deepEqual(await walk(alice, '&prefix=b-'), ['b-1', 'b-2']);
    t.deepEqual(await walk(alice, `&ttag=${pathTtag(two)}`), ['two']);
    const page = await alice.get('/api/aliases?limit=1');
    t.like(page.body, { items: [{ alias: 'A0', ttag: one }], complete: true });
    t.like(await alice.get('/api/aliases?limit=1001'), { status: 400, body: { code: 'BAD_REQUEST' } });
    t.like(await alice.get('/api/aliases?cursor=bm90LWEtY3Vyc29y'), { status: 400, body: { code: 'BAD_REQUEST' } });

    t.is((await alice.put(`/api/keys/${pathTtag(two)}/acl/bob`, { rights: ['read'] })).status, 200);
    t.deepEqual(await walk(bob), ['bobs', 'two'], 'a key granted to the caller shows its aliases');
    const carol = await signIn(gw, 'carol');
    t.deepEqual(await walk(carol), []);
  });
}

test('a key carries at most 50 aliases: the 51st is 409 CONFLICT with reason ALIAS_LIMIT', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  for (let i = 0; i < 50; i += 1) t.is((await alice.put(`/api/aliases/n${i}`, { ttag })).status, 200);
  t.like(await alice.put('/api/aliases/n50', { ttag }), { status: 409, body: { code: 'CONFLICT', reason: 'ALIAS_LIMIT' } });
  t.is((await alice.put('/api/aliases/n7', { ttag })).status, 200, 'an alias the key carries already is no 51st');
});

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: the key-inventory writes take an alias too: a tag and a scheduled deletion land on the key it names, and the audit names both`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice, { keyLen: 32 });
      t.is((await alice.put('/api/aliases/ledger', { ttag })).status, 200);

      const tagged = await alice.put(`${ALIAS_PATH('ledger')}/tags/team`, { value: 'payments' });
      t.like(tagged, { status: 200, body: { name: 'team', value: 'payments' } }, tagged.text);
      t.like(await alice.get(`/api/keys/${pathTtag(ttag)}`), { body: { tags: { team: 'payments' } } });
      t.is((await alice.del(`${ALIAS_PATH('ledger')}/tags/team`)).status, 204);
      t.deepEqual((await alice.get(`/api/keys/${pathTtag(ttag)}`)).body.tags, {});

      const scheduled = await alice.post(`${ALIAS_PATH('ledger')}/schedule-deletion`, { pendingDays: 7 });
      t.like(scheduled, { status: 200, body: { ttag, state: 'pending-deletion' } }, scheduled.text);
      const cancelled = await alice.post(`${ALIAS_PATH('ledger')}/cancel-deletion`);
      t.like(cancelled, { status: 200, body: { ttag, state: 'disabled' } }, cancelled.text);

      for (const operation of ['keys.tag', 'keys.untag', 'keys.schedule-deletion', 'keys.cancel-deletion']) {
        t.like((await records(gw, operation))[0], { object: ttag, alias: 'ledger', outcome: 'ok' }, operation);
      }
    },
  );
}
