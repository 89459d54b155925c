import { createHash, createPrivateKey, createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { KeygateApiError, KeygateClient } from '../../src/client/index.js';
import { PASSWORDS, startGateway, type TestGateway } from '../_support/gateway.js';

/**
 * keygate/client's signing-key methods (docs/spec.md §4.25) against a real gateway on a real socket;
 * every signature and token it gets is checked by node:crypto or jose, never by keygate alone.
 */
async function alice(gw: TestGateway) {
  return new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('alice', PASSWORDS.alice);
}

const message = new TextEncoder().encode('a message to sign');

test('createKey makes a signing key by type; sign answers signature bytes node:crypto verifies with the public-key PEM', async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const key = await session.createKey({ type: 'ec-p256', label: 'client signing' });
  t.like(key, { type: 'ec-p256', alg: 'ES256', exportable: false, published: false });

  const signed = await session.sign(key.ttag, { alg: 'ES256', message });
  t.true(signed.signature instanceof Uint8Array);
  t.is(signed.signature.length, 64, 'ES256 as JOSE raw r || s');
  t.like(signed, { alg: 'ES256', version: 1 });
  const publicKey = await session.publicKey(key.ttag);
  t.like(publicKey, { ttag: key.ttag, type: 'ec-p256', alg: 'ES256', version: 1, kid: signed.kid });
  t.like(publicKey.jwk, { kty: 'EC', crv: 'P-256', kid: signed.kid, alg: 'ES256', use: 'sig' });
  const pem = createPublicKey(publicKey.pem);
  t.true(verify('sha256', message, { key: pem, dsaEncoding: 'ieee-p1363' }, signed.signature));

  const digest = new Uint8Array(createHash('sha256').update(message).digest());
  const byDigest = await session.sign(key.ttag, { alg: 'ES256', digest });
  t.true(verify('sha256', message, { key: pem, dsaEncoding: 'ieee-p1363' }, byDigest.signature), 'a digest signs the same message');
});

test('verify takes the signature as bytes or base64, answers the version and kid, and invalid for a changed message', async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const key = await session.createKey({ type: 'ed25519' });
  const signed = await session.sign(key.ttag, { alg: 'EdDSA', message: 'text is its UTF-8' });
  const jwk = (await session.publicKey(key.ttag)).jwk;
  t.true(verify(null, Buffer.from('text is its UTF-8'), createPublicKey({ key: { ...jwk }, format: 'jwk' }), signed.signature));

  t.deepEqual(await session.verify(key.ttag, { alg: 'EdDSA', message: 'text is its UTF-8', signature: signed.signature }), {
    valid: true,
    version: 1,
    kid: signed.kid,
  });
  const base64 = Buffer.from(signed.signature).toString('base64');
  t.like(await session.verify(key.ttag, { alg: 'EdDSA', message: 'text is its UTF-8', signature: base64, version: 1 }), { valid: true });
  t.like(await session.verify(key.ttag, { alg: 'EdDSA', message: 'text is not', signature: signed.signature }), { valid: false });
});

test('jwks lists every version not retired, newest first, and a JWT signJwt makes verifies against it with jose', async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const key = await session.createKey({ type: 'rsa-2048', alg: 'PS256', jwtMaxLifetime: 600 });
  const first = await session.signJwt(key.ttag, { sub: 'order-42' }, { typ: 'at+jwt' });
  await session.rotateKey(key.ttag);
  const second = await session.signJwt(key.ttag, { sub: 'order-43' });
  const jwks = await session.jwks(key.ttag);
  t.deepEqual(
    jwks.keys.map((jwk) => jwk.kid),
    [second.kid, first.kid],
  );
  t.like(second, { alg: 'PS256', version: 2 });
  const keySet = createLocalJWKSet({ keys: [...jwks.keys] });
  const checked = await jwtVerify(first.jwt, keySet, { currentDate: new Date(gw.clock.now()), typ: 'at+jwt' });
  t.like(checked.payload, { sub: 'order-42' });
  t.is((checked.payload.exp ?? 0) - (checked.payload.iat ?? 0), 600, 'exp defaults to iat + jwtMaxLifetime');
  t.like((await jwtVerify(second.jwt, keySet, { currentDate: new Date(gw.clock.now()) })).protectedHeader, {
    alg: 'PS256',
    kid: second.kid,
  });

  await session.setMinVersion(key.ttag, 2);
  t.deepEqual(
    (await session.jwks(key.ttag)).keys.map((jwk) => jwk.kid),
    [second.kid],
  );
  t.like(await session.publicKey(key.ttag, 1), { version: 1, kid: first.kid }, 'a retired version still has its public key');
});

test('setPublished publishes the JWKS at /jwks/keys/{ttag}.json and withdraws it', async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const key = await session.createKey({ type: 'ec-p384' });
  const url = `${gw.url}/jwks/keys/${encodeURIComponent(key.ttag)}.json`;
  t.like(await session.setPublished(key.ttag, true), { ttag: key.ttag, published: true });
  const served = await fetch(url);
  t.is(served.status, 200);
  t.deepEqual(await served.json(), await session.jwks(key.ttag));
  t.like(await session.setPublished(key.ttag, false), { published: false });
});

test("exportSigningKey opens an exportable key's PKCS#8 whose public key is the key's; a key made without exportable refuses", async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const key = await session.createKey({ type: 'ec-p256', exportable: true });
  const exported = await session.exportSigningKey(key.ttag);
  t.like(exported, { type: 'ec-p256', format: 'pkcs8', version: 1 });
  const privateKey = createPrivateKey({ key: Buffer.from(exported.key), format: 'der', type: 'pkcs8' });
  const publicPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' });
  t.is(publicPem, (await session.publicKey(key.ttag)).pem);
  const either = await session.exportAnyKey(key.ttag);
  t.true('format' in either && either.format === 'pkcs8');

  const sealed = await session.createKey({ type: 'ec-p256' });
  const refused = await t.throwsAsync(session.exportSigningKey(sealed.ttag), { instanceOf: KeygateApiError });
  t.like(refused, { status: 409, code: 'KEY_TYPE_MISMATCH' });
});

test('batch signs and verifies items of several keys in one request each, one refused item not failing the others', async (t) => {
  const gw = await startGateway(t);
  const session = await alice(gw);
  const [ec, ed, aes] = await Promise.all([
    session.createKey({ type: 'ec-p256' }),
    session.createKey({ type: 'ed25519' }),
    session.createKey(),
  ]);
  const message = Buffer.from('batched').toString('base64');
  const signed = await session.batch('sign', [
    { ttag: ec.ttag, alg: 'ES256', message },
    { ttag: ed.ttag, alg: 'EdDSA', message },
    { ttag: aes.ttag, alg: 'ES256', message },
  ]);
  t.like(signed[2], { ok: false, error: { code: 'KEY_TYPE_MISMATCH' } });
  const [first, second] = signed;
  if (!first?.ok || !second?.ok) return t.fail('the signing keys signed');
  const ecPem = createPublicKey((await session.publicKey(ec.ttag)).pem);
  t.true(verify('sha256', Buffer.from('batched'), { key: ecPem, dsaEncoding: 'ieee-p1363' }, Buffer.from(first.signature, 'base64')));
  const verified = await session.batch('sign-verify', [
    { ttag: ec.ttag, alg: 'ES256', message, signature: first.signature },
    { ttag: ed.ttag, alg: 'EdDSA', message, signature: first.signature },
  ]);
  t.deepEqual(
    verified.map((item) => item.ok && item.valid),
    [true, false],
  );
});
