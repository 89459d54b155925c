import { randomBytes } from 'node:crypto';
import test from 'ava';
import { gcmAlgFor, gcmDecrypt, gcmEncrypt, hmacSha256, verifyHmacSha256 } from '../../../src/keyserver/model/data-crypto.js';

const iv = Buffer.alloc(12, 7);

for (const keyLen of [16, 24, 32] as const) {
  test(`AES-GCM with a ${keyLen}-byte key round-trips with and without aad`, (t) => {
    const key = randomBytes(keyLen);
    for (const aad of [undefined, Buffer.from('context')]) {
      const sealed = gcmEncrypt(key, iv, Buffer.from('hello'), aad);
      t.is(sealed.authTag.length, 16);
      t.is(gcmDecrypt(key, iv, sealed, aad).toString(), 'hello');
    }
  });
}

test('the algorithm name follows the key length', (t) => {
  t.deepEqual(
    [16, 24, 32].map((n) => gcmAlgFor(n as 16 | 24 | 32)),
    ['A128GCM', 'A192GCM', 'A256GCM'],
  );
});

const tamperings: [
  string,
  (sealed: { ciphertext: Buffer; authTag: Buffer }) => [Buffer, { ciphertext: Buffer; authTag: Buffer }, Buffer | undefined],
][] = [
  [
    'a flipped ciphertext bit',
    (s) => [iv, { ciphertext: Buffer.from(s.ciphertext.map((b, i) => (i === 0 ? b ^ 1 : b))), authTag: s.authTag }, undefined],
  ],
  [
    'a flipped tag bit',
    (s) => [iv, { ciphertext: s.ciphertext, authTag: Buffer.from(s.authTag.map((b, i) => (i === 0 ? b ^ 1 : b))) }, undefined],
  ],
  ['another iv', (s) => [Buffer.alloc(12, 8), s, undefined]],
  ['aad that was not there', (s) => [iv, s, Buffer.from('x')]],
];
for (const [name, tamper] of tamperings) {
  test(`decryption refuses ${name} with DECRYPT_FAILED`, (t) => {
    const key = randomBytes(16);
    const [otherIv, sealed, aad] = tamper(gcmEncrypt(key, iv, Buffer.from('payload')));
    const error = t.throws(() => gcmDecrypt(key, otherIv, sealed, aad));
    t.is((error as { code?: string }).code, 'DECRYPT_FAILED');
  });
}

test('an iv or tag of the wrong length is BAD_REQUEST, not DECRYPT_FAILED', (t) => {
  const key = randomBytes(16);
  const sealed = gcmEncrypt(key, iv, Buffer.from('x'));
  t.is((t.throws(() => gcmDecrypt(key, Buffer.alloc(16), sealed)) as { code?: string }).code, 'BAD_REQUEST');
  t.is(
    (t.throws(() => gcmDecrypt(key, iv, { ...sealed, authTag: sealed.authTag.subarray(0, 12) })) as { code?: string }).code,
    'BAD_REQUEST',
  );
  t.is((t.throws(() => gcmEncrypt(key, Buffer.alloc(8), Buffer.from('x'))) as { code?: string }).code, 'BAD_REQUEST');
});

test('HMAC-SHA256 matches RFC 4231 test case 2', (t) => {
  const mac = hmacSha256(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'));
  t.is(mac.toString('hex'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
});

test('a MAC verifies only for the same key and data, and a short MAC is simply invalid', (t) => {
  const key = randomBytes(32);
  const mac = hmacSha256(key, Buffer.from('data'));
  t.true(verifyHmacSha256(key, Buffer.from('data'), mac));
  t.false(verifyHmacSha256(key, Buffer.from('date'), mac));
  t.false(verifyHmacSha256(randomBytes(32), Buffer.from('data'), mac));
  t.false(verifyHmacSha256(key, Buffer.from('data'), mac.subarray(0, 16)));
});
