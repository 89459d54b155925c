import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.23 item 6: the key view's lastUsedAt and lastUsedOperation, by the key server's clock. */
const b64 = (text: string) => Buffer.from(text).toString('base64');

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: the key view shows the last use, at most a minute behind, whichever way the key was used`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice);
    const path = `/api/keys/${pathTtag(ttag)}`;
    const view = async () => (await alice.get(path)).body;
    t.false('lastUsedAt' in (await view()), 'an unused key has no last use');
    t.is((await alice.put('/api/aliases/payroll', { ttag })).status, 200);

    const first = gw.clock.now();
    const sealed = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') });
    t.is(sealed.status, 200, sealed.text);
    t.like(await view(), { lastUsedAt: new Date(first).toISOString(), lastUsedOperation: 'encrypt' });

    gw.clock.advance(30_000);
    const items = Array.from({ length: 1000 }, (_, i) => ({ ttag: i % 2 === 0 ? ttag : 'alias/payroll', data: b64(`${i}`) }));
    t.is((await alice.post('/api/crypto/mac', { items })).status, 200);
    t.like(await view(), { lastUsedAt: new Date(first).toISOString(), lastUsedOperation: 'encrypt' }, 'within the minute: unchanged');

    gw.clock.advance(30_000);
    const opened = await alice.post('/api/crypto/decrypt', { ttag: 'alias/payroll', sealed: sealed.body.sealed });
    t.is(opened.status, 200, opened.text);
    t.like(await view(), { lastUsedAt: new Date(first + 60_000).toISOString(), lastUsedOperation: 'decrypt' });

    gw.clock.advance(60_000);
    const root = await gw.login('alice');
    const exported = await gw.call('POST', '/keys/export', {
      headers: { 'X-Session': root },
      body: { ttag, clientPubKey: clientKeyPair().publicKey },
    });
    t.is(exported.status, 200, exported.text);
    t.like(await view(), { lastUsedAt: new Date(first + 120_000).toISOString(), lastUsedOperation: 'export' }, 'the root export counts');

    gw.clock.advance(60_000);
    const { ciphertext, iv } = sealed.body;
    t.like(await alice.post('/api/crypto/decrypt', { ttag, ciphertext, iv, authTag: b64('0123456789abcdef') }), {
      status: 400,
      body: { code: 'DECRYPT_FAILED' },
    });
    t.like(await view(), { lastUsedOperation: 'export' }, 'a refused use is no use');
  });
}
