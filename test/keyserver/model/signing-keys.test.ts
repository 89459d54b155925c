import { createPublicKey } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint, importJWK } from 'jose';
import { generateSigningKey, publicKeyOf, signingJwk } from '../../../src/keyserver/model/signing-keys.js';
import type { SigningKeyType } from '../../../src/wire/key-type.js';

/** docs/spec.md §4.25 items 1, 6: each type's key pair as PKCS#8, its JWK and RFC 7638 kid, checked with jose. */
const TYPES: [SigningKeyType, string, Record<string, unknown>][] = [
  ['ec-p256', 'ES256', { kty: 'EC', crv: 'P-256' }],
  ['ec-p384', 'ES384', { kty: 'EC', crv: 'P-384' }],
  ['ed25519', 'EdDSA', { kty: 'OKP', crv: 'Ed25519' }],
  ['rsa-2048', 'RS256', { kty: 'RSA', e: 'AQAB' }],
];

for (const [type, alg, members] of TYPES) {
  test(`a ${type} key is PKCS#8 whose public JWK carries the members, alg, use and the RFC 7638 kid jose computes`, async (t) => {
    const pkcs8 = await generateSigningKey(type);
    const jwk = signingJwk(publicKeyOf(pkcs8), alg as never);
    t.like(jwk, { ...members, alg, use: 'sig' });
    t.false('d' in jwk, 'no private member');
    t.is(jwk.kid, await calculateJwkThumbprint(jwk));
    const imported = await importJWK(jwk, alg);
    t.truthy(imported);
    t.deepEqual(
      createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'der', type: 'spki' }),
      publicKeyOf(pkcs8).export({ format: 'der', type: 'spki' }),
    );
  });
}

test('an RSA key of each size has its modulus and exponent 65537', async (t) => {
  for (const bits of [2048, 3072] as const) {
    const key = publicKeyOf(await generateSigningKey(`rsa-${bits}`));
    t.is(key.asymmetricKeyDetails?.modulusLength, bits);
    t.is(key.asymmetricKeyDetails?.publicExponent, 65537n);
  }
});
