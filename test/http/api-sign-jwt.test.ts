import { constants, createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { type ApiSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';
import { seededDaemonKeyServer } from '../_support/seeded-daemon.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.25 item 5: JWTs signed in the key server, checked by jose against the key's JWKS. */
async function jwksOf(session: ApiSession, ttag: string): Promise<JSONWebKeySet> {
  const reply = await session.get(`/api/keys/${pathTtag(ttag)}/jwks`);
  if (reply.status !== 200) throw new Error(`jwks: ${reply.status} ${reply.text}`);
  return reply.body;
}

for (const store of KEY_SERVER_STORES) {
  const check = testUnless(storeSkipReason(store));

  check(
    `${store}: sign-jwt issues a JWT jose verifies against the key's JWKS, across a rotation until min-version retires the first`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const alice = await signIn(gw, 'alice');
      const key = await createKey(alice, { type: 'ec-p256', jwtMaxLifetime: 600 });
      const path = pathTtag(key.ttag);
      const first = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: { sub: 'svc-a', aud: 'relying-party' } });
      t.is(first.status, 200, first.text);
      t.deepEqual(Object.keys(first.body).sort(), ['alg', 'jwt', 'kid', 'version']);
      const v1 = (await alice.get(`/api/keys/${path}/public-key`)).body;
      t.like(first.body, { alg: 'ES256', version: 1, kid: v1.kid });
      t.deepEqual(decodeProtectedHeader(first.body.jwt), { alg: 'ES256', kid: v1.kid, typ: 'JWT' });
      const now = Math.floor(gw.clock.now() / 1000);
      const checked = await jwtVerify(first.body.jwt, createLocalJWKSet(await jwksOf(alice, key.ttag)), { audience: 'relying-party' });
      t.like(checked.payload, { sub: 'svc-a', iat: now, exp: now + 600 });
      t.is((await alice.post(`/api/keys/${path}/rotate`, {})).status, 200);
      const second = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: { sub: 'svc-b' } });
      t.like(second.body, { version: 2 });
      t.not(second.body.kid, v1.kid);
      const both = createLocalJWKSet(await jwksOf(alice, key.ttag));
      t.is((await jwtVerify(first.body.jwt, both)).payload.sub, 'svc-a', 'a token of v1 still verifies after the rotation');
      t.is((await jwtVerify(second.body.jwt, both)).payload.sub, 'svc-b');
      t.is((await alice.put(`/api/keys/${path}/min-version`, { minVersion: 2 })).status, 200);
      const retired = createLocalJWKSet(await jwksOf(alice, key.ttag));
      await t.throwsAsync(jwtVerify(first.body.jwt, retired), { instanceOf: errors.JWKSNoMatchingKey });
      t.is((await jwtVerify(second.body.jwt, retired)).payload.sub, 'svc-b');
    },
  );
}

test('sign-jwt signs with the key’s alg (PS256, EdDSA), jose verifies, and a header typ and extra names pass', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  for (const [type, alg] of [
    ['rsa-2048', 'PS256'],
    ['ed25519', 'EdDSA'],
  ] as const) {
    const key = await createKey(alice, { type, alg });
    const reply = await alice.post('/api/crypto/sign-jwt', {
      ttag: key.ttag,
      claims: { sub: type, nested: { a: [1, 2] } },
      header: { typ: 'at+jwt', 'x-tenant': 'blue' },
    });
    t.is(reply.status, 200, reply.text);
    const { payload, protectedHeader } = await jwtVerify(reply.body.jwt, createLocalJWKSet(await jwksOf(alice, key.ttag)), {
      typ: 'at+jwt',
    });
    t.deepEqual(protectedHeader, { alg, kid: reply.body.kid, typ: 'at+jwt', 'x-tenant': 'blue' });
    t.deepEqual(payload.nested, { a: [1, 2] });
  }
});

test('sign-jwt refuses claims and header it may not sign, naming claims.exp, claims.iat or header.<name>; an aes key is KEY_TYPE_MISMATCH', async (t) => {
  const gw = await startStoreGateway(t, 'memory');
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice, { type: 'ec-p256', jwtMaxLifetime: 600 });
  const aes = await createKey(alice, {});
  const now = Math.floor(gw.clock.now() / 1000);
  const refused: [Record<string, unknown>, string][] = [
    [{ claims: { exp: now + 601 } }, 'claims.exp'],
    [{ claims: { iat: now - 100, exp: now + 501 } }, 'claims.exp'],
    [{ claims: { exp: now } }, 'claims.exp'],
    [{ claims: { exp: 'tomorrow' } }, 'claims.exp'],
    [{ claims: { exp: now + 10.5 } }, 'claims.exp'],
    [{ claims: { iat: now + 61 } }, 'claims.iat'],
    [{ claims: { iat: '0' } }, 'claims.iat'],
    [{ claims: { iat: now - 700 } }, 'claims.exp'],
    [{ claims: { blob: 'x'.repeat(70_000) } }, 'claims'],
    ...['alg', 'kid', 'jku', 'jwk', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'crit', 'b64', 'zip', 'enc'].map(
      (name): [Record<string, unknown>, string] => [{ claims: {}, header: { [name]: 'none' } }, `header.${name}`],
    ),
    [{ claims: {}, header: { cty: 7 } }, 'header.cty'],
    [{ claims: {}, header: { 'x-list': ['a'] } }, 'header.x-list'],
  ];
  for (const [body, field] of refused) {
    const reply = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, ...body });
    t.is(reply.status, 400, `${JSON.stringify(body).slice(0, 100)}: ${reply.text.slice(0, 200)}`);
    t.is(reply.body.code, 'BAD_REQUEST');
    t.true(String(reply.body.detail).startsWith(field), `${field}: ${reply.body.detail}`);
  }
  const edge = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: { iat: now + 60, exp: now + 660 } });
  t.is(edge.status, 200, `iat 60 s ahead and exp the full lifetime after it: ${edge.text}`);
  gw.clock.advance(3600_000);
  const later = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: {} });
  const payload = JSON.parse(Buffer.from(later.body.jwt.split('.')[1], 'base64url').toString());
  t.is(payload.iat, now + 3600, 'iat is the key server’s clock');
  const mismatch = await alice.post('/api/crypto/sign-jwt', { ttag: aes.ttag, claims: {} });
  t.is(mismatch.status, 409);
  t.is(mismatch.body.code, 'KEY_TYPE_MISMATCH');
});

test('through a keygate keyserver daemon: sign, verify, a batch, sign-jwt, the public key and the JWKS cross the protocol', async (t) => {
  const keyServer = await seededDaemonKeyServer(t);
  const gw = await startGateway(t, {}, { keyServer });
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice, { type: 'rsa-2048', alg: 'RS384' });
  const publicKey = await alice.get(`/api/keys/${pathTtag(key.ttag)}/public-key?version=1`);
  t.is(publicKey.status, 200, publicKey.text);
  t.like(publicKey.body, { type: 'rsa-2048', alg: 'RS384', version: 1 });
  const message = Buffer.from('over the daemon');
  const signed = await alice.post('/api/crypto/sign', { ttag: key.ttag, alg: 'PS512', message: message.toString('base64') });
  t.is(signed.status, 200, signed.text);
  const pss = {
    key: createPublicKey(publicKey.body.pem),
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  };
  t.true(verify('sha512', message, pss, Buffer.from(signed.body.signature, 'base64')), 'node:crypto verifies the PS512 signature');
  const checked = await alice.post('/api/crypto/sign/verify', {
    items: [
      { ttag: key.ttag, alg: 'PS512', message: message.toString('base64'), signature: signed.body.signature },
      { ttag: key.ttag, alg: 'PS512', message: 'AAAA', signature: signed.body.signature },
      { ttag: key.ttag, alg: 'ES256', message: 'AAAA', signature: signed.body.signature },
    ],
  });
  t.is(checked.status, 200, checked.text);
  t.like(checked.body.items, [
    { ok: true, valid: true, version: 1, kid: publicKey.body.kid },
    { ok: true, valid: false },
    { ok: false, error: { code: 'BAD_REQUEST' } },
  ]);
  const jwt = await alice.post('/api/crypto/sign-jwt', { ttag: key.ttag, claims: { sub: 'daemon' } });
  t.is(jwt.status, 200, jwt.text);
  const { payload, protectedHeader } = await jwtVerify(jwt.body.jwt, createLocalJWKSet(await jwksOf(alice, key.ttag)));
  t.is(payload.sub, 'daemon');
  t.is(protectedHeader.alg, 'RS384');
  const aes = await createKey(alice, {});
  t.like((await alice.post('/api/crypto/sign', { ttag: aes.ttag, alg: 'RS256', message: 'AAAA' })).body, { code: 'KEY_TYPE_MISMATCH' });
});
