import { inspect } from 'node:util';
import test from 'ava';
import { ExportUnwrapError, newXWingKeyPair, unwrapXWing, type XWingWrappedKey } from '../../src/client/index.js';
import { specXWingSeal } from '../_support/spec-xwing.js';

/**
 * keygate/client's side of docs/spec.md §3.4 item 3: a fresh X-Wing key pair per request, and the
 * opening of an HPKE wrap, checked on wraps made by the sender written from the spec
 * (test/_support/spec-xwing.ts), not by src/.
 */

const publicKeyOf = async () => {
  const pair = await newXWingKeyPair();
  return { pair, raw: Buffer.from(pair.publicKey, 'base64') };
};

function flip(base64: string, index: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index]! ^= 1;
  return bytes.toString('base64');
}

test('a fresh key pair each time, its public key 1,216 bytes, its private key never shown', async (t) => {
  const { pair, raw } = await publicKeyOf();
  t.is(raw.length, 1216);
  t.not((await newXWingKeyPair()).publicKey, pair.publicKey);
  t.deepEqual(JSON.parse(JSON.stringify(pair)), { publicKey: pair.publicKey });
  t.false(inspect(pair).includes('privateKey'));
});

test('a wrap made from the spec opens, for an export and for a data key, each with its own info', async (t) => {
  const { pair, raw } = await publicKeyOf();
  const key = Buffer.alloc(32, 7);
  const exported = specXWingSeal(raw, 'keygate export v2', key) as XWingWrappedKey;
  const dataKey = specXWingSeal(raw, 'keygate datakey v2', key) as XWingWrappedKey;
  t.deepEqual(Buffer.from(await unwrapXWing(exported, pair)), key);
  t.deepEqual(Buffer.from(await unwrapXWing(dataKey, pair, 'datakey')), key);
  t.deepEqual(Buffer.from(await pair.unwrapDataKey(dataKey)), key);
  await t.throwsAsync(unwrapXWing(dataKey, pair, 'export'), { instanceOf: ExportUnwrapError }, 'a data key is no export');
  await t.throwsAsync(unwrapXWing(exported, pair, 'datakey'), { instanceOf: ExportUnwrapError }, 'an export is no data key');
});

test('a wrap changed in any part, made to another key, or of another shape is refused', async (t) => {
  const { pair, raw } = await publicKeyOf();
  const wrapped = specXWingSeal(raw, 'keygate export v2', Buffer.alloc(16, 1)) as XWingWrappedKey;
  const refused: [string, XWingWrappedKey][] = [
    ['ciphertext', { ...wrapped, ciphertext: flip(wrapped.ciphertext, 0) }],
    ['tag', { ...wrapped, ciphertext: flip(wrapped.ciphertext, 16 + 15) }],
    ['ML-KEM ciphertext', { ...wrapped, enc: flip(wrapped.enc, 0) }],
    ['X25519 ephemeral key', { ...wrapped, enc: flip(wrapped.enc, 1100) }],
    ['enc too short', { ...wrapped, enc: Buffer.from(wrapped.enc, 'base64').subarray(1).toString('base64') }],
    ['enc not base64', { ...wrapped, enc: '%%%' }],
    ['another algo', { ...wrapped, algo: 'hpke-xwing-hkdf-sha256-aes-128-gcm' as never }],
    [
      'another key',
      specXWingSeal(
        Buffer.from((await newXWingKeyPair()).publicKey, 'base64'),
        'keygate export v2',
        Buffer.alloc(16, 1),
      ) as XWingWrappedKey,
    ],
  ];
  for (const [what, envelope] of refused) await t.throwsAsync(unwrapXWing(envelope, pair), { instanceOf: ExportUnwrapError }, what);
});
