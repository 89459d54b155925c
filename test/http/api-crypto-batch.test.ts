import test from 'ava';
import { createKey, signIn } from '../_support/api-client.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const UNKNOWN_KEY = Buffer.alloc(16, 7).toString('base64');

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: a batch answers one result per item in order; a bad item fails alone; one audit record counts items and failures`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const { ttag } = await createKey(alice);
      const { ttag: foreign } = await createKey(await signIn(gw, 'bob'));
      const sealed = await alice.post('/api/crypto/encrypt', {
        items: [
          { ttag, plaintext: b64('one') },
          { ttag: UNKNOWN_KEY, plaintext: b64('lost') },
          { ttag: foreign, plaintext: b64('not mine') },
          { ttag: 'not a ttag!', plaintext: b64('bad') },
          { ttag, plaintext: b64('two'), aad: b64('x') },
        ],
      });
      t.is(sealed.status, 200, sealed.text);
      const items = sealed.body.items as { ok: boolean; error?: { code: string }; version?: number }[];
      t.deepEqual(
        items.map((item) => (item.ok ? `ok ${item.version}` : item.error!.code)),
        ['ok 1', 'NOT_FOUND', 'ACL_DENIED', 'BAD_REQUEST', 'ok 1'],
      );
      const strip = ({ ok: _ok, alg: _alg, sealed: _sealed, ...rest }: Record<string, unknown>) => rest;
      const opened = await alice.post('/api/crypto/decrypt', {
        items: [
          { ttag, ...strip(items[4] as never), aad: b64('x') },
          { ttag, ...strip(items[0] as never), aad: b64('wrong') },
          { ttag, ...strip(items[0] as never) },
        ],
      });
      t.is(opened.status, 200, opened.text);
      t.deepEqual(opened.body.items, [
        { ok: true, plaintext: b64('two') },
        { ok: false, error: { code: 'DECRYPT_FAILED', detail: opened.body.items[1].error.detail } },
        { ok: true, plaintext: b64('one') },
      ]);
      const macs = await alice.post('/api/crypto/mac', { items: [{ ttag, data: b64('a') }] });
      const verified = await alice.post('/api/crypto/mac/verify', {
        items: [
          { ttag, data: b64('a'), mac: macs.body.items[0].mac },
          { ttag, data: b64('b'), mac: macs.body.items[0].mac },
        ],
      });
      t.deepEqual(verified.body.items, [
        { ok: true, valid: true },
        { ok: true, valid: false },
      ]);

      const auditor = await signIn(gw, 'audra');
      const records = (await auditor.get('/api/audit?operation=crypto.encrypt')).body.items;
      t.is(records.length, 1, 'one record for the whole batch');
      t.like(records[0], { principal: 'alice', outcome: 'ok', items: 5, failures: 3 });
      t.false('object' in records[0], 'a batch over several keys names none');
      const decrypts = (await auditor.get('/api/audit?operation=crypto.decrypt')).body.items;
      t.like(decrypts, [{ items: 3, failures: 1, object: ttag }]);
    },
  );
}

test('a batch of more than 1000 items, an empty one, or an item off its schema is 400 naming the field', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const item = { ttag, plaintext: b64('x') };
  t.like(await alice.post('/api/crypto/encrypt', { items: Array.from({ length: 1001 }, () => item) }), {
    status: 400,
    body: { code: 'BAD_REQUEST', detail: 'items: at most 1000 items' },
  });
  t.like(await alice.post('/api/crypto/encrypt', { items: [] }), { status: 400, body: { detail: 'items: at least one item' } });
  t.like(await alice.post('/api/crypto/encrypt', { items: [item, { ttag, plaintext: 'not base64!' }] }), {
    status: 400,
    body: { detail: 'items.1.plaintext: not standard base64' },
  });
  t.like(await alice.post('/api/crypto/encrypt', { items: [item], extra: 1 }), { status: 400, body: { code: 'BAD_REQUEST' } });
  t.like(await alice.post('/api/crypto/encrypt', { ttag, plaintext: 'not base64!' }), {
    status: 400,
    body: { detail: 'plaintext: not standard base64' },
  });
  const full = await alice.post('/api/crypto/encrypt', { items: Array.from({ length: 1000 }, () => item) });
  t.is(full.status, 200, full.text);
  t.is(full.body.items.length, 1000);
});
