import { constants, createHash, createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint, flattenedVerify, importJWK, type JWK } from 'jose';
import { hashOfAlg, type SigningAlg } from '../../src/wire/key-type.js';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.25 items 2 to 6 through /api: every signature checked by node:crypto and jose alone. */
const TYPES_AND_ALGS: [string, SigningAlg[]][] = [
  ['ec-p256', ['ES256']],
  ['ec-p384', ['ES384']],
  ['ed25519', ['EdDSA']],
  ['rsa-2048', ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']],
];

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const b64url = (value: Uint8Array | string) => Buffer.from(value).toString('base64url');

/** How node:crypto checks a JOSE signature of `alg` over the message, with the PEM the gateway answered. */
function nodeVerifies(pem: string, alg: SigningAlg, message: Uint8Array, signature: Buffer): boolean {
  const options = alg.startsWith('ES')
    ? { dsaEncoding: 'ieee-p1363' as const }
    : alg.startsWith('PS')
      ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : {};
  return verify(hashOfAlg(alg)?.name ?? null, message, { key: createPublicKey(pem), ...options }, signature);
}

async function publicKeyOf(alice: ApiSession, ttag: string, version?: number) {
  const reply = await alice.get(`/api/keys/${pathTtag(ttag)}/public-key${version === undefined ? '' : `?version=${version}`}`);
  if (reply.status !== 200) throw new Error(`public key: ${reply.status} ${reply.text}`);
  return reply.body as { pem: string; jwk: JWK & { kid: string }; kid: string; version: number; alg: SigningAlg; type: string };
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(`${store}: each algorithm signs a message and its digest; node:crypto and jose verify with the public key alone`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    for (const [type, algs] of TYPES_AND_ALGS) {
      const key = await createKey(alice, { type });
      const published = await publicKeyOf(alice, key.ttag);
      t.like(published, { ttag: key.ttag, type, alg: algs[0], version: 1 });
      t.is(published.kid, await calculateJwkThumbprint(published.jwk), `${type}: kid is the RFC 7638 thumbprint`);
      t.is(published.jwk.kid, published.kid);
      t.deepEqual(
        createPublicKey(published.pem).export({ format: 'der', type: 'spki' }),
        createPublicKey({ key: published.jwk as never, format: 'jwk' }).export({ format: 'der', type: 'spki' }),
      );
      const jwks = await alice.get(`/api/keys/${pathTtag(key.ttag)}/jwks`);
      t.deepEqual(jwks.body, { keys: [published.jwk] });
      for (const alg of algs) {
        // A flattened JWS whose signing input the gateway signs as the message.
        const header = b64url(JSON.stringify({ alg }));
        const payload = b64url(`payload for ${alg}`);
        const message = Buffer.from(`${header}.${payload}`);
        const signed = await alice.post('/api/crypto/sign', { ttag: key.ttag, alg, message: b64(message) });
        t.is(signed.status, 200, `${alg}: ${signed.text}`);
        t.like(signed.body, { alg, version: 1, kid: published.kid });
        t.deepEqual(Object.keys(signed.body).sort(), ['alg', 'kid', 'signature', 'version']);
        const signature = Buffer.from(signed.body.signature, 'base64');
        t.true(nodeVerifies(published.pem, alg, message, signature), `${alg}: node:crypto verifies the message signature`);
        const jws = { protected: header, payload, signature: b64url(signature) };
        const verified = await flattenedVerify(jws, await importJWK(published.jwk, alg));
        t.is(Buffer.from(verified.payload).toString(), `payload for ${alg}`, `${alg}: jose verifies`);
        const hash = hashOfAlg(alg);
        if (hash === undefined) continue;
        const digest = createHash(hash.name).update(message).digest();
        const byDigest = await alice.post('/api/crypto/sign', { ttag: key.ttag, alg, digest: b64(digest) });
        t.is(byDigest.status, 200, byDigest.text);
        t.true(nodeVerifies(published.pem, alg, message, Buffer.from(byDigest.body.signature, 'base64')), `${alg}: digest signature`);
        const checked = await alice.post('/api/crypto/sign/verify', {
          ttag: key.ttag,
          alg,
          digest: b64(digest),
          signature: byDigest.body.signature,
        });
        t.deepEqual(checked.body, { valid: true, version: 1, kid: published.kid });
      }
    }
  });

  check(
    `${store}: verify answers valid by version or kid, false for a changed message or signature, and refuses a retired or unknown version`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const key = await createKey(alice, { type: 'ec-p256' });
      const path = pathTtag(key.ttag);
      const message = b64('signed before the rotation');
      const first = (await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'ES256', message })).body;
      const v1 = await publicKeyOf(alice, key.ttag);
      t.is((await alice.post(`/api/keys/${path}/rotate`, {})).status, 200);
      const v2 = await publicKeyOf(alice, key.ttag);
      t.is(v2.version, 2);
      t.not(v2.kid, v1.kid);
      const second = (await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'ES256', message })).body;
      t.like(second, { version: 2, kid: v2.kid });
      t.true(nodeVerifies(v2.pem, 'ES256', Buffer.from(message, 'base64'), Buffer.from(second.signature, 'base64')));
      t.deepEqual((await alice.get(`/api/keys/${path}/jwks`)).body.keys, [v2.jwk, v1.jwk]);
      const verifyWith = (fields: Record<string, unknown>) =>
        alice.post('/api/crypto/sign/verify', { ttag: key.ttag, alg: 'ES256', message, signature: first.signature, ...fields });
      t.deepEqual((await verifyWith({})).body, { valid: true, version: 1, kid: v1.kid });
      t.deepEqual((await verifyWith({ version: 1 })).body, { valid: true, version: 1, kid: v1.kid });
      t.deepEqual((await verifyWith({ kid: v1.kid })).body, { valid: true, version: 1, kid: v1.kid });
      t.deepEqual((await verifyWith({ version: 2 })).body, { valid: false });
      t.deepEqual((await verifyWith({ message: b64('another message') })).body, { valid: false });
      const tampered = Buffer.from(first.signature, 'base64');
      tampered[3]! ^= 1;
      t.deepEqual((await verifyWith({ signature: b64(tampered) })).body, { valid: false });
      t.deepEqual((await verifyWith({ signature: b64(tampered.subarray(1)) })).body, { valid: false }, 'wrong length');
      t.deepEqual((await verifyWith({ signature: 'not base64!' })).body, { valid: false }, 'not base64');
      t.like((await verifyWith({ version: 3 })).body, { code: 'KEY_VERSION_NOT_FOUND' });
      const unknownKid = await verifyWith({ kid: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      t.is(unknownKid.status, 404);
      t.like(unknownKid.body, { code: 'KEY_VERSION_NOT_FOUND' });
      t.like((await verifyWith({ version: 1, kid: v1.kid })).body, { code: 'BAD_REQUEST' });
      // min-version retires v1: its signature no longer verifies, asking for it is 409, its public key still reads.
      t.is((await alice.put(`/api/keys/${path}/min-version`, { minVersion: 2 })).status, 200);
      t.deepEqual((await verifyWith({})).body, { valid: false });
      const retired = await verifyWith({ version: 1 });
      t.is(retired.status, 409);
      t.like(retired.body, { code: 'KEY_VERSION_RETIRED' });
      t.like((await verifyWith({ kid: v1.kid })).body, { code: 'KEY_VERSION_RETIRED' });
      t.deepEqual((await alice.get(`/api/keys/${path}/jwks`)).body.keys, [v2.jwk]);
      t.is((await publicKeyOf(alice, key.ttag, 1)).kid, v1.kid, 'a retired version still has its public key');
      t.like((await alice.get(`/api/keys/${path}/public-key?version=3`)).body, { code: 'KEY_VERSION_NOT_FOUND' });
    },
  );

  check(`${store}: a batch signs and verifies item by item, a failing item alone`, async (t) => {
    const gw = await startStoreGateway(t, store);
    const alice = await signIn(gw, 'alice');
    const key = await createKey(alice, { type: 'ed25519' });
    const aes = await createKey(alice, {});
    const published = await publicKeyOf(alice, key.ttag);
    const messages = ['one', 'two'].map((text) => b64(text));
    const signed = await alice.post('/api/crypto/sign', {
      items: [
        { ttag: key.ttag, alg: 'EdDSA', message: messages[0] },
        { ttag: aes.ttag, alg: 'EdDSA', message: messages[0] },
        { ttag: key.ttag, alg: 'ES256', message: messages[0] },
        { ttag: key.ttag, alg: 'EdDSA', message: messages[1] },
        { ttag: key.ttag, alg: 'EdDSA', digest: b64(Buffer.alloc(32)) },
      ],
    });
    t.is(signed.status, 200, signed.text);
    const items = signed.body.items;
    t.like(items, [
      { ok: true, alg: 'EdDSA', version: 1, kid: published.kid },
      { ok: false, error: { code: 'KEY_TYPE_MISMATCH' } },
      { ok: false, error: { code: 'BAD_REQUEST' } },
      { ok: true, version: 1 },
      { ok: false, error: { code: 'BAD_REQUEST' } },
    ]);
    t.false('type' in items[0], 'the key type is the record’s, not the answer’s');
    t.true(items[2].error.detail.startsWith('alg'), items[2].error.detail);
    t.true(items[4].error.detail.startsWith('digest'), items[4].error.detail);
    for (const index of [0, 3]) {
      const message = Buffer.from(messages[index === 0 ? 0 : 1]!, 'base64');
      t.true(verify(null, message, createPublicKey(published.pem), Buffer.from(items[index].signature, 'base64')));
    }
    const verified = await alice.post('/api/crypto/sign/verify', {
      items: [
        { ttag: key.ttag, alg: 'EdDSA', message: messages[0], signature: items[0].signature },
        { ttag: key.ttag, alg: 'EdDSA', message: messages[0], signature: items[3].signature },
        { ttag: key.ttag, alg: 'EdDSA', message: messages[1], signature: items[3].signature, version: 9 },
      ],
    });
    t.like(verified.body.items, [
      { ok: true, valid: true, version: 1, kid: published.kid },
      { ok: true, valid: false },
      { ok: false, error: { code: 'KEY_VERSION_NOT_FOUND' } },
    ]);
  });
}

test('sign refuses what its request or key does not fit: 400 naming alg, digest or message, 409 KEY_TYPE_MISMATCH for an aes key', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const ec = await createKey(alice, { type: 'ec-p256' });
  const ed = await createKey(alice, { type: 'ed25519' });
  const aes = await createKey(alice, {});
  const message = b64('m');
  const refused: [Record<string, unknown>, number, string, string][] = [
    [{ ttag: ec.ttag, alg: 'RS256', message }, 400, 'BAD_REQUEST', 'alg'],
    [{ ttag: ec.ttag, alg: 'HS256', message }, 400, 'BAD_REQUEST', 'alg'],
    [{ ttag: ec.ttag, alg: 'ES256', digest: b64(Buffer.alloc(31)) }, 400, 'BAD_REQUEST', 'digest'],
    [{ ttag: ec.ttag, alg: 'ES256', digest: 'not base64' }, 400, 'BAD_REQUEST', 'digest'],
    [{ ttag: ed.ttag, alg: 'EdDSA', digest: b64(Buffer.alloc(32)) }, 400, 'BAD_REQUEST', 'digest'],
    [{ ttag: ec.ttag, alg: 'ES256' }, 400, 'BAD_REQUEST', 'message'],
    [{ ttag: ec.ttag, alg: 'ES256', message, digest: b64(Buffer.alloc(32)) }, 400, 'BAD_REQUEST', 'message'],
    [{ ttag: ec.ttag, alg: 'ES256', message: b64(Buffer.alloc(65_537)) }, 400, 'BAD_REQUEST', 'message'],
    [{ ttag: aes.ttag, alg: 'ES256', message }, 409, 'KEY_TYPE_MISMATCH', ''],
  ];
  for (const [body, status, code, field] of refused) {
    const reply = await alice.post('/api/crypto/sign', body);
    t.is(reply.status, status, `${JSON.stringify(body).slice(0, 120)}: ${reply.text}`);
    t.is(reply.body.code, code);
    t.true(String(reply.body.detail).startsWith(field), `${field}: ${reply.body.detail}`);
  }
  const fullMessage = await alice.post('/api/crypto/sign', { ttag: ec.ttag, alg: 'ES256', message: b64(Buffer.alloc(65_536)) });
  t.is(fullMessage.status, 200, 'a 64 KiB message is signed');
  for (const path of ['public-key', 'jwks']) {
    const reply = await alice.get(`/api/keys/${pathTtag(aes.ttag)}/${path}`);
    t.is(reply.status, 409, path);
    t.is(reply.body.code, 'KEY_TYPE_MISMATCH');
  }
  const aesVerify = await alice.post('/api/crypto/sign/verify', { ttag: aes.ttag, alg: 'ES256', message, signature: b64('x') });
  t.is(aesVerify.body.code, 'KEY_TYPE_MISMATCH');
});

test('signing needs the right sign: a grantee with read only is ACL_DENIED on sign and sign-jwt, yet verifies and reads the public key', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice, { type: 'ec-p256' });
  const path = pathTtag(key.ttag);
  const message = b64('granted');
  const signed = (await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'ES256', message })).body;
  t.is((await bob.post('/api/crypto/sign/verify', { ttag: key.ttag, alg: 'ES256', message, signature: signed.signature })).status, 403);
  t.is((await alice.put(`/api/keys/${path}/acl/bob`, { rights: ['read'] })).status, 200);
  const denied = await bob.post('/api/crypto/sign', { ttag: key.ttag, alg: 'ES256', message });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ACL_DENIED');
  const deniedJwt = await bob.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: { sub: 'bob' } });
  t.is(deniedJwt.body.code, 'ACL_DENIED');
  const checked = await bob.post('/api/crypto/sign/verify', { ttag: key.ttag, alg: 'ES256', message, signature: signed.signature });
  t.like(checked.body, { valid: true, version: 1 });
  t.is((await bob.get(`/api/keys/${path}/public-key`)).status, 200);
  t.is((await bob.get(`/api/keys/${path}/jwks`)).status, 200);
  t.is((await alice.put(`/api/keys/${path}/acl/bob`, { rights: ['read', 'sign'] })).status, 200);
  const granted = await bob.post('/api/crypto/sign', { ttag: key.ttag, alg: 'ES256', message });
  t.is(granted.status, 200, granted.text);
});

test('a signature is noted as the key’s last use; a disabled key neither signs nor verifies (KEY_DISABLED), and its public key still reads', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice, { type: 'ed25519' });
  const path = pathTtag(key.ttag);
  const message = b64('before');
  const signed = (await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'EdDSA', message })).body;
  t.is((await alice.get(`/api/keys/${path}`)).body.lastUsedOperation, 'sign', 'a signature is the key’s last use');
  t.is((await alice.post(`/api/keys/${path}/disable`, {})).status, 200);
  const sign = await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'EdDSA', message });
  t.like(sign.body, { code: 'KEY_DISABLED' });
  const verified = await alice.post('/api/crypto/sign/verify', { ttag: key.ttag, alg: 'EdDSA', message, signature: signed.signature });
  t.like(verified.body, { code: 'KEY_DISABLED' });
  t.is((await alice.get(`/api/keys/${path}/public-key`)).status, 200);
});
