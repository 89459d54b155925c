import { createDecipheriv, createHmac } from 'node:crypto';
import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway } from '../_support/gateway.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

for (const [keyLen, alg] of [
  [16, 'A128GCM'],
  [24, 'A192GCM'],
  [32, 'A256GCM'],
] as const) {
  test(`encrypt and decrypt round-trip under a ${keyLen}-byte key as ${alg}, with aad`, async (t) => {
    const gw = await startGateway(t);
    const alice = await signIn(gw, 'alice');
    const { ttag } = await createKey(alice, { keyLen });
    const sealed = await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('attack at dawn'), aad: b64('order 7') });
    t.is(sealed.status, 200);
    t.deepEqual(Object.keys(sealed.body).sort(), ['alg', 'authTag', 'ciphertext', 'iv', 'sealed', 'version']);
    t.is(sealed.body.alg, alg);
    t.is(Buffer.from(sealed.body.iv, 'base64').length, 12);
    t.is(Buffer.from(sealed.body.authTag, 'base64').length, 16);
    const { alg: _alg, sealed: _sealed, ...fields } = sealed.body;
    const opened = await alice.post('/api/crypto/decrypt', { ttag, ...fields, aad: b64('order 7') });
    t.is(opened.status, 200);
    t.deepEqual(opened.body, { plaintext: b64('attack at dawn') });
  });
}

test('a holder of the exported key can open the ciphertext and check the MAC itself', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 32 });
  const client = clientKeyPair();
  const key = client.unwrap((await alice.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey })).body.wrapped);
  const sealed = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('portable') })).body;
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.authTag, 'base64'));
  t.is(Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString(), 'portable');
  const mac = await alice.post('/api/crypto/mac', { ttag, data: b64('message') });
  t.deepEqual(mac.body, { mac: createHmac('sha256', key).update('message').digest('base64'), alg: 'HS256', version: 1 });
});

test('POST /api/crypto/decrypt answers 400 DECRYPT_FAILED for a bad tag or the wrong aad', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const {
    alg: _alg,
    sealed: _sealed,
    ...sealed
  } = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x'), aad: b64('a') })).body;
  const tag = Buffer.from(sealed.authTag, 'base64');
  tag[0]! ^= 1;
  for (const body of [
    { ...sealed, ttag, aad: b64('a'), authTag: tag.toString('base64') },
    { ...sealed, ttag, aad: b64('b') },
  ]) {
    const reply = await alice.post('/api/crypto/decrypt', body);
    t.is(reply.status, 400);
    t.is(reply.body.code, 'DECRYPT_FAILED');
  }
});

test('cryptography needs the right: encrypt without it is 403 ACL_DENIED, decrypt too', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const { ttag } = await createKey(alice);
  await alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['encrypt'] });
  const sealed = await bob.post('/api/crypto/encrypt', { ttag, plaintext: b64('for alice') });
  t.is(sealed.status, 200);
  const { alg: _alg, sealed: _sealed, ...fields } = sealed.body;
  const opened = await bob.post('/api/crypto/decrypt', { ttag, ...fields });
  t.is(opened.status, 403);
  t.is(opened.body.code, 'ACL_DENIED');
  const carol = await signIn(gw, 'carol');
  t.is((await carol.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') })).body.code, 'ACL_DENIED');
});

test('POST /api/crypto/mac answers an HS256 MAC; a role without crypto.mac is 403 ROLE_DENIED', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const mac = await alice.post('/api/crypto/mac', { ttag, data: b64('data') });
  t.is(mac.status, 200);
  t.is(Buffer.from(mac.body.mac, 'base64').length, 32);
  const denied = await (await signIn(gw, 'audra')).post('/api/crypto/mac', { ttag, data: b64('data') });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
});

test('POST /api/crypto/mac/verify says valid for the right MAC, invalid for another, 403 without mac', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const { ttag } = await createKey(alice);
  const { mac } = (await alice.post('/api/crypto/mac', { ttag, data: b64('data') })).body;
  t.deepEqual((await alice.post('/api/crypto/mac/verify', { ttag, data: b64('data'), mac })).body, { valid: true });
  t.deepEqual((await alice.post('/api/crypto/mac/verify', { ttag, data: b64('datum'), mac })).body, { valid: false });
  t.deepEqual((await alice.post('/api/crypto/mac/verify', { ttag, data: b64('data'), mac: b64('short') })).body, { valid: false });
  const denied = await bob.post('/api/crypto/mac/verify', { ttag, data: b64('data'), mac });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ACL_DENIED');
});

test('crypto bodies are validated: not base64 or a missing field is 400 naming the field', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice);
  const notBase64 = await alice.post('/api/crypto/encrypt', { ttag, plaintext: 'not base64!' });
  t.is(notBase64.status, 400);
  t.regex(notBase64.body.detail, /plaintext/);
  const missing = await alice.post('/api/crypto/decrypt', { ttag, ciphertext: b64('x'), iv: b64('x') });
  t.regex(missing.body.detail, /authTag/);
  const shortIv = await alice.post('/api/crypto/decrypt', {
    ttag,
    ciphertext: b64('x'),
    iv: b64('x'),
    authTag: Buffer.alloc(16).toString('base64'),
  });
  t.is(shortIv.status, 400);
  t.is(shortIv.body.code, 'BAD_REQUEST');
});
