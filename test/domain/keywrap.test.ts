import { createECDH, webcrypto } from 'node:crypto';
import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { KeygateError } from '../../src/domain/errors/index.js';
import { parseClientPublicKey } from '../../src/domain/keywrap/parse-client-public-key.js';
import { unwrapKey } from '../../src/domain/keywrap/unwrap-key.js';
import { wrapKey } from '../../src/domain/keywrap/wrap-key.js';
import { keyLengthForNid, nidForKeyLength } from '../../src/wire/key-length.js';
import { SeededRandom } from '../_support/seeded-random.js';

const random = new CryptoRandom();

function clientKey() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh;
}

test('a wrapped key opens with the client private key and has the contract parameters', (t) => {
  const client = clientKey();
  const dataKey = Buffer.from(random.bytes(32));
  const wrapped = wrapKey(dataKey, client.getPublicKey(), random);
  t.is(Buffer.from(wrapped.gatewayPubKey, 'base64').length, 65);
  t.is(Buffer.from(wrapped.gatewayPubKey, 'base64')[0], 0x04);
  t.is(Buffer.from(wrapped.salt, 'base64').length, 16);
  t.is(Buffer.from(wrapped.iv, 'base64').length, 12);
  t.is(Buffer.from(wrapped.authTag, 'base64').length, 16);
  t.is(Buffer.from(wrapped.ciphertext, 'base64').length, 32);
  t.deepEqual(unwrapKey(wrapped, client.getPrivateKey()), dataKey);
});

test('the same key wrapped twice gives two different envelopes', (t) => {
  const client = clientKey();
  const dataKey = Buffer.from(random.bytes(16));
  const a = wrapKey(dataKey, client.getPublicKey(), random);
  const b = wrapKey(dataKey, client.getPublicKey(), random);
  t.not(a.gatewayPubKey, b.gatewayPubKey);
  t.not(a.salt, b.salt);
  t.not(a.iv, b.iv);
  t.not(a.ciphertext, b.ciphertext);
  t.deepEqual(unwrapKey(a, client.getPrivateKey()), unwrapKey(b, client.getPrivateKey()));
});

test('a tampered envelope does not open', (t) => {
  const client = clientKey();
  const wrapped = wrapKey(Buffer.alloc(16, 7), client.getPublicKey(), random);
  const flipped = Buffer.from(wrapped.ciphertext, 'base64');
  flipped[0]! ^= 1;
  t.throws(() => unwrapKey({ ...wrapped, ciphertext: flipped.toString('base64') }, client.getPrivateKey()));
  t.throws(() => unwrapKey(wrapped, clientKey().getPrivateKey()));
});

test('the envelope opens with WebCrypto alone, as a browser does it (non-extractable ECDH key)', async (t) => {
  const subtle = webcrypto.subtle;
  const pair = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as CryptoKeyPair;
  const rawPublic = Buffer.from(await subtle.exportKey('raw', pair.publicKey));
  const dataKey = Buffer.from(random.bytes(24));
  const wrapped = wrapKey(dataKey, rawPublic, random);
  const gatewayKey = await subtle.importKey(
    'raw',
    Buffer.from(wrapped.gatewayPubKey, 'base64'),
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const shared = await subtle.deriveBits({ name: 'ECDH', public: gatewayKey }, pair.privateKey, 256);
  const hkdfKey = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const aesKey = await subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: Buffer.from(wrapped.salt, 'base64'), info: Buffer.from('keygate export v1') },
    hkdfKey,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
  const sealed = Buffer.concat([Buffer.from(wrapped.ciphertext, 'base64'), Buffer.from(wrapped.authTag, 'base64')]);
  const opened = await subtle.decrypt({ name: 'AES-GCM', iv: Buffer.from(wrapped.iv, 'base64') }, aesKey, sealed);
  t.deepEqual(Buffer.from(opened), dataKey);
});

test('wrapping is a function of its randomness: the same seed gives the same envelope', (t) => {
  const client = Buffer.from(clientKey().getPublicKey());
  const key = Buffer.alloc(16, 1);
  t.deepEqual(wrapKey(key, client, new SeededRandom('x')), wrapKey(key, client, new SeededRandom('x')));
});

const valid = clientKey().getPublicKey();
const offCurve = Buffer.from(valid);
offCurve[64]! ^= 1;
const badKeys: [string, string][] = [
  ['empty', ''],
  ['not base64', '!!!!'],
  ['base64url alphabet', valid.toString('base64url')],
  ['64 bytes', valid.subarray(0, 64).toString('base64')],
  ['66 bytes', Buffer.concat([valid, Buffer.from([0])]).toString('base64')],
  ['compressed prefix', Buffer.concat([Buffer.from([0x02]), valid.subarray(1)]).toString('base64')],
  ['point off the curve', offCurve.toString('base64')],
  ['all zero point', Buffer.concat([Buffer.from([4]), Buffer.alloc(64)]).toString('base64')],
];
for (const [name, value] of badKeys) {
  test(`clientPubKey refused: ${name}`, (t) => {
    const error = t.throws(() => parseClientPublicKey(value));
    t.is((error as { code?: string }).code, 'BAD_REQUEST');
  });
}

test('clientPubKey: a valid point is accepted', (t) => {
  t.deepEqual(parseClientPublicKey(valid.toString('base64')), valid);
});

test('NID maps to key length (419, 423, 427) and back; others are refused', (t) => {
  t.is(keyLengthForNid(419, KeygateError), 16);
  t.is(keyLengthForNid(423, KeygateError), 24);
  t.is(keyLengthForNid(427, KeygateError), 32);
  t.is(nidForKeyLength(16, KeygateError), 419);
  t.is(nidForKeyLength(24, KeygateError), 423);
  t.is(nidForKeyLength(32, KeygateError), 427);
  for (const nid of [0, 418, 420, 426, 428])
    t.throws(() => keyLengthForNid(nid, KeygateError), { instanceOf: KeygateError, code: 'KEY_SERVER_FAILED' });
});
