import { createCipheriv, randomBytes } from 'node:crypto';
import test from 'ava';
import { nodeAead, type SegmentAead, segmentAead, webCryptoAead } from '../../src/client/segment-aead.js';

/**
 * docs/spec.md §4.5a (Streams item 3): a segment is AES-256-GCM under K with its nonce, ciphertext ||
 * 16-byte tag. In Node the stream code seals and opens it with Node's own cipher; in a browser with
 * WebCrypto (test/e2e/stream-browser.test.ts runs that one in Chromium). Both are held here to the
 * same bytes, each other's and those of a plain `createCipheriv` pass.
 */

async function segmentKeyAndBytes(usages: KeyUsage[]) {
  const raw = randomBytes(32);
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, usages);
  return { raw, key };
}

const sizes = [0, 1, 15, 16, 17, 4096, 65_536 + 3];

test('Node is given its own cipher, under the same non-extractable key: two parts, where WebCrypto answers one', async (t) => {
  const { key } = await segmentKeyAndBytes(['encrypt', 'decrypt']);
  t.false(key.extractable);
  const iv = randomBytes(12);
  const piece = randomBytes(100);
  // The bytes are the same either way; how they come says which cipher made them.
  const chosen = await segmentAead(key).seal(iv, piece);
  t.is(chosen.length, 2);
  t.is(chosen[1]!.length, 16);
  t.is((await webCryptoAead(key).seal(iv, piece)).length, 1);
  t.deepEqual(Buffer.concat(chosen), Buffer.concat(await nodeAead(key, await import('node:crypto')).seal(iv, piece)));
});

test('both seal exactly what createCipheriv makes, and open each other', async (t) => {
  const { raw, key } = await segmentKeyAndBytes(['encrypt', 'decrypt']);
  const aeads: Record<string, SegmentAead> = { node: nodeAead(key, await import('node:crypto')), webcrypto: webCryptoAead(key) };
  for (const size of sizes) {
    const iv = randomBytes(12);
    const piece = randomBytes(size);
    const cipher = createCipheriv('aes-256-gcm', raw, iv);
    const expected = Buffer.concat([cipher.update(piece), cipher.final(), cipher.getAuthTag()]);
    for (const [sealer, aead] of Object.entries(aeads)) {
      const sealed = Buffer.concat(await aead.seal(iv, piece));
      t.true(Buffer.from(sealed).equals(expected), `${sealer}, ${size} bytes`);
      for (const [opener, other] of Object.entries(aeads)) {
        t.true(Buffer.from(await other.open(iv, sealed)).equals(piece), `${sealer} sealed, ${opener} opened, ${size} bytes`);
      }
    }
  }
});

test('each refuses a changed byte, another nonce, and a segment shorter than its tag', async (t) => {
  const { raw, key } = await segmentKeyAndBytes(['encrypt', 'decrypt']);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', raw, iv);
  const sealed = Buffer.concat([cipher.update(randomBytes(300)), cipher.final(), cipher.getAuthTag()]);
  for (const aead of [nodeAead(key, await import('node:crypto')), webCryptoAead(key)]) {
    for (const at of [0, 150, sealed.length - 1]) {
      const changed = Buffer.from(sealed);
      changed[at]! ^= 1;
      await t.throwsAsync(aead.open(iv, changed), { any: true });
    }
    await t.throwsAsync(aead.open(randomBytes(12), sealed), { any: true });
    await t.throwsAsync(aead.open(iv, sealed.subarray(0, 15)), { any: true });
  }
});

test('an opened segment is a Uint8Array whose buffer holds it alone, never a view of a buffer shared with other data', async (t) => {
  const { raw, key } = await segmentKeyAndBytes(['decrypt']);
  const iv = randomBytes(12);
  const piece = randomBytes(10);
  const cipher = createCipheriv('aes-256-gcm', raw, iv);
  const sealed = Buffer.concat([cipher.update(piece), cipher.final(), cipher.getAuthTag()]);
  const opened = await nodeAead(key, await import('node:crypto')).open(iv, sealed);
  t.is(opened.buffer.byteLength, 10);
  t.is(opened.byteOffset, 0);
  t.false(Buffer.isBuffer(opened));
  t.true(Buffer.from(opened).equals(piece));
});
