import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import test from 'ava';
import { checkClientKeyForm, prepareClientWrap } from '../../src/crypto/client-wrap.js';
import { prepareXWingWrap } from '../../src/crypto/xwing-wrap.js';
import { BadRequestError } from '../../src/domain/errors/common.errors.js';
import { SeededRandom } from '../_support/seeded-random.js';
import { expandXWingKey, specXWingKey, specXWingUnwrap, xwingDecapsulate } from '../_support/spec-xwing.js';

/**
 * docs/spec.md §3.4: the HPKE wrap to an X-Wing key, opened by the independent client of
 * test/_support/spec-xwing.ts (X-Wing from ML-KEM-768, X25519 and SHA3-256, the RFC 9180 schedule with
 * node:crypto), never by the packages that made it.
 */

const random = new SeededRandom('xwing-wrap');
const pub = (key: { publicKey: string }) => Buffer.from(key.publicKey, 'base64');

test("the independent opener's X-Wing is noble's ml_kem768_x25519: the same public key of a seed, the same decapsulated secret", (t) => {
  const { secretKey, publicKey } = ml_kem768_x25519.keygen(new Uint8Array(32).fill(3));
  const { pkM, pkX } = expandXWingKey(secretKey);
  t.deepEqual(Buffer.concat([pkM, pkX]), Buffer.from(publicKey), 'draft §5.2: pk = pk_M || pk_X');
  t.is(publicKey.length, 1216);
  const { cipherText, sharedSecret } = ml_kem768_x25519.encapsulate(publicKey);
  t.is(cipherText.length, 1120);
  t.deepEqual(xwingDecapsulate(cipherText, secretKey), Buffer.from(sharedSecret));
});

test('an X-Wing wrap opens, with the info of what it wraps, to the bytes sealed; another info does not open it', async (t) => {
  const client = specXWingKey();
  const key = Buffer.from(random.bytes(32));

  const wrapped = await (await prepareClientWrap(pub(client), random, 'export', BadRequestError)).seal(key);

  t.deepEqual(Object.keys(wrapped).sort(), ['algo', 'ciphertext', 'enc']);
  t.like(wrapped, { algo: 'hpke-xwing-hkdf-sha256-aes-256-gcm' });
  if (!('enc' in wrapped)) return t.fail('an X-Wing key is wrapped with HPKE');
  t.is(Buffer.from(wrapped.enc, 'base64').length, 1120);
  t.is(Buffer.from(wrapped.ciphertext, 'base64').length, 32 + 16);
  t.deepEqual(specXWingUnwrap(wrapped, client.secretKey, 'keygate export v2'), key);
  t.throws(() => specXWingUnwrap(wrapped, client.secretKey, 'keygate datakey v2'), undefined, 'a wrapped export is no wrapped data key');
  const dataKeyWrap = await (await prepareClientWrap(pub(client), random, 'datakey', BadRequestError)).seal(key);
  if (!('enc' in dataKeyWrap)) return t.fail('an X-Wing key is wrapped with HPKE');
  t.deepEqual(specXWingUnwrap(dataKeyWrap, client.secretKey, 'keygate datakey v2'), key);
});

test('the wrap is a function of its randomness: the same seed gives the same enc and ciphertext', async (t) => {
  const client = pub(specXWingKey());
  const key = Buffer.alloc(24, 5);
  const wrap = async (seed: string) =>
    (await prepareXWingWrap(client, new SeededRandom(seed), 'keygate export v2', BadRequestError)).seal(key);
  t.deepEqual(await wrap('a'), await wrap('a'));
  t.notDeepEqual(await wrap('a'), await wrap('b'));
});

test('a 1,216-byte key the KEM refuses (garbage, all zero) is BAD_REQUEST', async (t) => {
  for (const key of [Buffer.from(random.bytes(1216)), Buffer.alloc(1216)]) {
    const error = await t.throwsAsync(prepareXWingWrap(key, random, 'keygate datakey v2', BadRequestError), {
      instanceOf: BadRequestError,
    });
    t.is(error?.message, 'clientPubKey: not an X-Wing public key');
  }
});

test('a clientPubKey is told by its length: 65 bytes P-256 (0x04 first), 1,216 X-Wing, any other refused', (t) => {
  const point = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]);
  t.notThrows(() => checkClientKeyForm(point, BadRequestError));
  t.notThrows(() => checkClientKeyForm(Buffer.alloc(1216), BadRequestError));
  for (const length of [0, 32, 64, 66, 1184, 1215, 1217, 1120]) {
    t.throws(() => checkClientKeyForm(Buffer.alloc(length, 4), BadRequestError), { instanceOf: BadRequestError }, `${length} bytes`);
  }
  t.throws(() => checkClientKeyForm(Buffer.alloc(65, 2), BadRequestError), { instanceOf: BadRequestError }, 'a compressed prefix');
});
