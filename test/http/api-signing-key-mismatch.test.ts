import test from 'ava';
import { createKey, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');

/**
 * docs/spec.md §4.25 item 1 "Mismatch": every symmetric operation (§4.5, §4.5a, §4.22) asked of a
 * signing key is 409 KEY_TYPE_MISMATCH, single or as a batch item (that item alone), on every store.
 */
for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: encrypt, decrypt, MAC, MAC verify, rewrap and data keys with a signing key are 409 KEY_TYPE_MISMATCH`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag: signing } = await createKey(alice, { type: 'ec-p256' });
    const { ttag: aes } = await createKey(alice, { keyLen: 32 });
    const made = await alice.post('/api/crypto/datakey', { ttag: aes });
    t.is(made.status, 200, made.text);
    const ciphertext = { ciphertext: b64(8), iv: b64(12), authTag: b64(16) };
    const requests: [string, Record<string, unknown>][] = [
      ['/api/crypto/encrypt', { plaintext: b64(8) }],
      ['/api/crypto/decrypt', ciphertext],
      ['/api/crypto/mac', { data: b64(8) }],
      ['/api/crypto/mac/verify', { data: b64(8), mac: b64(32) }],
      ['/api/crypto/rewrap', ciphertext],
      ['/api/crypto/datakey', {}],
      ['/api/crypto/datakey/open', { blob: made.body.blob, clientPubKey: clientKeyPair().publicKey }],
    ];
    for (const [path, fields] of requests) {
      const reply = await alice.post(path, { ttag: signing, ...fields });
      t.is(reply.status, 409, `${path}: ${reply.text}`);
      t.is(reply.body.code, 'KEY_TYPE_MISMATCH', path);
    }
  });

  check(`${store}: a batch item naming a signing key fails alone with KEY_TYPE_MISMATCH`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const { ttag: signing } = await createKey(alice, { type: 'ed25519' });
    const { ttag: aes } = await createKey(alice);
    const sealed = await alice.post('/api/crypto/encrypt', { items: [{ ttag: aes, plaintext: b64(4) }] });
    t.is(sealed.status, 200, sealed.text);
    const { ciphertext, iv, authTag } = sealed.body.items[0];
    const mac = await alice.post('/api/crypto/mac', { ttag: aes, data: b64(4) });
    const batches: [string, Record<string, unknown>][] = [
      ['/api/crypto/encrypt', { plaintext: b64(4) }],
      ['/api/crypto/decrypt', { ciphertext, iv, authTag }],
      ['/api/crypto/mac', { data: b64(4) }],
      ['/api/crypto/mac/verify', { data: b64(4), mac: mac.body.mac }],
      ['/api/crypto/rewrap', { ciphertext, iv, authTag }],
    ];
    for (const [path, fields] of batches) {
      const reply = await alice.post(path, {
        items: [
          { ttag: signing, ...fields },
          { ttag: aes, ...fields },
        ],
      });
      t.is(reply.status, 200, `${path}: ${reply.text}`);
      const [refused, done] = reply.body.items;
      t.like(refused, { ok: false, error: { code: 'KEY_TYPE_MISMATCH' } }, path);
      t.true(done.ok, `${path}: ${JSON.stringify(done)}`);
    }
  });
}

test('a symmetric operation on a signing key leaves its last use unwritten', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { type: 'ec-p256' });
  const refused = await alice.post('/api/crypto/mac', { ttag, data: b64(4) });
  t.is(refused.status, 409, refused.text);
  const read = await alice.get(`/api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}`);
  t.is(read.status, 200, read.text);
  t.is(read.body.lastUsedAt, undefined);
});
