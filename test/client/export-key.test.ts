import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { ExportKey, ExportUnwrapError } from '../../src/client/export-key.js';
import type { WrappedKey } from '../../src/domain/keywrap/keywrap.js';
import { parseClientPublicKey } from '../../src/domain/keywrap/parse-client-public-key.js';
import { wrapKey } from '../../src/domain/keywrap/wrap-key.js';

const random = new CryptoRandom();

for (const length of [16, 24, 32]) {
  test(`an envelope of the gateway's wrapKey opens with the client's non-extractable ECDH key (${length} bytes)`, async (t) => {
    const exportKey = await ExportKey.generate();
    const point = parseClientPublicKey(exportKey.publicKey);
    t.is(point.length, 65);
    const dataKey = Buffer.from(random.bytes(length));
    const opened = await exportKey.unwrap(wrapKey(dataKey, point, random));
    t.deepEqual(Buffer.from(opened), dataKey);
  });
}

test('each export key is new: two keys give two public points', async (t) => {
  t.not((await ExportKey.generate()).publicKey, (await ExportKey.generate()).publicKey);
});

function flip(base64: string, index = 0): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index]! ^= 1;
  return bytes.toString('base64');
}

test('an envelope that was tampered with, or wrapped to another key, does not open', async (t) => {
  const exportKey = await ExportKey.generate();
  const wrapped = wrapKey(Buffer.alloc(16, 9), parseClientPublicKey(exportKey.publicKey), random);
  const broken: WrappedKey[] = [
    { ...wrapped, ciphertext: flip(wrapped.ciphertext) },
    { ...wrapped, authTag: flip(wrapped.authTag) },
    { ...wrapped, iv: flip(wrapped.iv) },
    { ...wrapped, salt: flip(wrapped.salt) },
    { ...wrapped, gatewayPubKey: flip(wrapped.gatewayPubKey, 64) },
  ];
  for (const envelope of broken) await t.throwsAsync(exportKey.unwrap(envelope), { instanceOf: ExportUnwrapError });
  const other = await ExportKey.generate();
  await t.throwsAsync(other.unwrap(wrapped), { instanceOf: ExportUnwrapError });
});

test('an envelope of the wrong shape is refused before any cryptography', async (t) => {
  const exportKey = await ExportKey.generate();
  const wrapped = wrapKey(Buffer.alloc(16, 9), parseClientPublicKey(exportKey.publicKey), random);
  const cases: [Partial<WrappedKey>, RegExp][] = [
    [{ salt: Buffer.alloc(15).toString('base64') }, /salt is 15 bytes/],
    [{ iv: Buffer.alloc(16).toString('base64') }, /iv is 16 bytes/],
    [{ authTag: Buffer.alloc(12).toString('base64') }, /authTag is 12 bytes/],
    [{ gatewayPubKey: Buffer.alloc(33).toString('base64') }, /gatewayPubKey is 33 bytes/],
    [{ ciphertext: '%%%' }, /ciphertext is not base64/],
  ];
  for (const [change, message] of cases) {
    await t.throwsAsync(exportKey.unwrap({ ...wrapped, ...change }), { instanceOf: ExportUnwrapError, message });
  }
});
