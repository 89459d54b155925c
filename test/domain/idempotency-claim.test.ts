import test from 'ava';
import { canonicalJson, idempotencyClaim, parseIdempotencyKey } from '../../src/domain/idempotency/idempotency-claim.js';

for (const [header, key] of [
  ['abc-123', 'abc-123'],
  ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
  ['"a\\"b"', 'a"b'],
  ['x'.repeat(255), 'x'.repeat(255)],
] as const) {
  test(`reads the Idempotency-Key ${header.slice(0, 40)}`, (t) => {
    t.is(parseIdempotencyKey(header), key);
  });
}

for (const header of ['', '""', 'has space', 'x'.repeat(256), 'é', '"unclosed', 'tab\there']) {
  test(`refuses the Idempotency-Key ${JSON.stringify(header.slice(0, 40))} with BAD_REQUEST`, (t) => {
    t.throws(() => parseIdempotencyKey(header), { code: 'BAD_REQUEST', message: /Idempotency-Key/ } as never);
  });
}

test('the fingerprint does not depend on the order of the body fields, and does on the method, path and values', (t) => {
  const a = idempotencyClaim('k', 'POST', '/api/keys', { keyLen: 16, label: 'x' });
  t.deepEqual(a, idempotencyClaim('k', 'post', '/api/keys', { label: 'x', keyLen: 16 }));
  t.regex(a.fingerprint, /^[A-Za-z0-9_-]{43}$/);
  t.not(a.fingerprint, idempotencyClaim('k', 'POST', '/api/keys', { keyLen: 32, label: 'x' }).fingerprint);
  t.not(a.fingerprint, idempotencyClaim('k', 'POST', '/api/keys/x/rotate', { keyLen: 16, label: 'x' }).fingerprint);
  t.is(canonicalJson({ b: [1, { d: 1, c: undefined }], a: 'é' }), '{"a":"é","b":[1,{"d":1}]}');
});
