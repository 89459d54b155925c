import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import { calculateJwkThumbprint } from 'jose';
import { jwkThumbprint } from '../../src/crypto/jwk-thumbprint.js';
import { parseSenderKey } from '../../src/crypto/sender-key.js';
import { BadRequestError } from '../../src/domain/errors/index.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ecJwk = ec.publicKey.export({ format: 'jwk' }) as Record<string, string>;
const rsaJwk = rsa.publicKey.export({ format: 'jwk' }) as Record<string, string>;

test('the RFC 7638 thumbprint agrees with jose for EC and RSA keys', async (t) => {
  t.is(jwkThumbprint(ecJwk), await calculateJwkThumbprint(ecJwk as never));
  t.is(jwkThumbprint(rsaJwk), await calculateJwkThumbprint(rsaJwk as never));
});

test('a public P-256 key is accepted with its thumbprint; members beyond the key are dropped', (t) => {
  const key = parseSenderKey({ ...ecJwk, kid: 'x', use: 'sig' }, { allowRsa: false, field: 'senderKey' }, BadRequestError);
  t.deepEqual(Object.keys(key.jwk).sort(), ['crv', 'kty', 'x', 'y']);
  t.is(key.jkt, jwkThumbprint(ecJwk));
});

const refused: [string, unknown, boolean][] = [
  ['a private EC key', ec.privateKey.export({ format: 'jwk' }), false],
  ['a private RSA key', rsa.privateKey.export({ format: 'jwk' }), true],
  ['RSA where only EC is allowed', rsaJwk, false],
  ['a P-384 key', generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' }), true],
  ['a 1024-bit RSA key', generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }), true],
  ['a symmetric key', { kty: 'oct', k: 'AAAA' }, true],
  ['a point off the curve', { ...ecJwk, y: ecJwk.x }, false],
  ['not an object', 'jwk', true],
];
for (const [name, jwk, allowRsa] of refused) {
  test(`refuses ${name} as BAD_REQUEST`, (t) => {
    const error = t.throws(() => parseSenderKey(jwk, { allowRsa, field: 'senderKey' }, BadRequestError));
    t.is((error as { code?: string }).code, 'BAD_REQUEST');
  });
}
