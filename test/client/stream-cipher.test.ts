import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import {
  decryptStream,
  encryptStream,
  KeygateApiError,
  KeygateClient,
  type KeygateSession,
  StreamContextMismatchError,
  StreamDecryptError,
  StreamFormatError,
  StreamKeyMismatchError,
} from '../../src/client/index.js';
import { PASSWORDS, startGateway, type TestGateway } from '../_support/gateway.js';
import { testUnless } from '../_support/skip.js';
import { KEY_SERVER_STORES, startStoreGateway, storeSkipReason } from '../_support/store-gateways.js';

/** docs/spec.md §4.5a (Streams): encryptStream and decryptStream against a real gateway on a socket. */

const SEGMENT = 256 * 1024;
const SMALL = 4096;
const TAG = 16;

async function aliceWithKey(gw: TestGateway): Promise<{ alice: KeygateSession; ttag: string }> {
  const alice = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('alice', PASSWORDS.alice);
  const { ttag } = await alice.createKey({ keyLen: 32 });
  return { alice, ttag };
}

/** A readable stream of `data` in chunks of `chunk` bytes (the last one shorter). */
function chunked(data: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return Buffer.concat(parts);
}

function encrypt(
  session: KeygateSession,
  ttag: string,
  data: Uint8Array,
  segmentSize?: number,
  chunk = 10_000,
  context?: Record<string, string>,
): Promise<Buffer> {
  const options = { ...(segmentSize === undefined ? {} : { segmentSize }), ...(context === undefined ? {} : { context }) };
  return collect(chunked(data, chunk).pipeThrough(encryptStream(session, ttag, options)));
}

function decrypt(
  session: KeygateSession,
  stream: Uint8Array,
  options: { ttag?: string; context?: Record<string, string> } = {},
  chunk = 7_000,
): Promise<Buffer> {
  return collect(chunked(stream, chunk).pipeThrough(decryptStream(session, options)));
}

const headerLength = (stream: Buffer) => stream.readUInt16BE(5);

const CONTEXT = { tenant: 'acme', region: 'eu' };

/** The stream with one value of its header's context replaced by another of the same UTF-8 length (still a canonical form). */
function withHeaderContext(stream: Buffer, name: string, value: string): Buffer {
  const header = Buffer.from(stream.subarray(0, headerLength(stream)));
  const at = header.indexOf(Buffer.from([name.length, ...Buffer.from(name), 0, value.length]));
  if (at < 0) throw new Error(`no member ${name} of that length in the header`);
  header.write(value, at + 1 + name.length + 2, 'utf8');
  return Buffer.concat([header, stream.subarray(header.length)]);
}

for (const size of [0, 1, SEGMENT - 1, SEGMENT, SEGMENT + 1, 3 * 1024 * 1024 + 5]) {
  test(`a stream of ${size} bytes decrypts to the same bytes, in segments of 256 KiB (the default)`, async (t) => {
    const gw = await startGateway(t);
    const { alice, ttag } = await aliceWithKey(gw);
    const data = randomBytes(size);

    const sealed = await encrypt(alice, ttag, data);

    const segments = Math.max(1, Math.ceil(size / SEGMENT));
    t.is(
      sealed.length,
      headerLength(sealed) + size + segments * TAG,
      'header, then every segment with its tag; the last is empty only for an empty stream',
    );
    t.true((await decrypt(alice, sealed)).equals(data));
    t.true((await decrypt(alice, sealed, {}, sealed.length)).equals(data), 'the whole stream in one chunk');
  });
}

for (const store of KEY_SERVER_STORES) {
  testUnless(storeSkipReason(store))(
    `streams written before and after a rotation both read, each header naming its version and its context (${store})`,
    async (t) => {
      const gw = await startStoreGateway(t, store);
      const { alice, ttag } = await aliceWithKey(gw);
      const data = randomBytes(SMALL * 2 + 9);
      const before = await encrypt(alice, ttag, data, SMALL, 10_000, CONTEXT);
      await alice.rotateKey(ttag);

      const after = await encrypt(alice, ttag, data, SMALL);

      t.deepEqual([before.readUInt32BE(11), after.readUInt32BE(11)], [1, 2]);
      t.true((await decrypt(alice, before)).equals(data), 'the header says which context opens the blob');
      t.true((await decrypt(alice, before, { context: { region: 'eu', tenant: 'acme' } })).equals(data), 'the expected one, in any order');
      t.true((await decrypt(alice, after, { context: {} })).equals(data));
      const mismatch = await t.throwsAsync(decrypt(alice, before, { context: { tenant: 'acme' } }), {
        instanceOf: StreamContextMismatchError,
      });
      t.is(mismatch?.code, 'STREAM_CONTEXT_MISMATCH');
      const refused = await t.throwsAsync(decrypt(alice, withHeaderContext(before, 'tenant', 'acmf')), { instanceOf: KeygateApiError });
      t.like(refused, { status: 400, code: 'DECRYPT_FAILED' }, 'the blob is bound to the context: another one does not open it');
    },
  );
}

test('chunks of any size, one byte at a time included, make and read the same stream', async (t) => {
  const gw = await startGateway(t);
  const { alice, ttag } = await aliceWithKey(gw);
  const data = randomBytes(2 * SMALL + 3);
  const sealed = await encrypt(alice, ttag, data, SMALL, 1);
  t.true((await decrypt(alice, sealed, {}, 1)).equals(data));
  t.true((await decrypt(alice, sealed, { ttag }, 4111)).equals(data));
});

/** A stream of 5 full segments of 4 KiB and a last of 100 bytes, cut into its header and segments. */
async function tamperStage(t: ExecutionContext) {
  const gw = await startGateway(t);
  const { alice, ttag } = await aliceWithKey(gw);
  const data = randomBytes(5 * SMALL + 100);
  const sealed = await encrypt(alice, ttag, data, SMALL);
  const header = sealed.subarray(0, headerLength(sealed));
  const segments: Buffer[] = [];
  for (let offset = header.length; offset < sealed.length; offset += SMALL + TAG)
    segments.push(sealed.subarray(offset, offset + SMALL + TAG));
  t.is(segments.length, 6);
  t.is(segments[5]!.length, 100 + TAG);
  return { gw, alice, ttag, data, sealed, header, segments };
}

test('reordered, dropped, duplicated, truncated or extended segments fail, naming the segment', async (t) => {
  const { alice, header, segments } = await tamperStage(t);
  const [s0, s1, s2, s3, s4, s5] = segments as [Buffer, Buffer, Buffer, Buffer, Buffer, Buffer];
  const cases: [string, Buffer[], number][] = [
    ['two segments swapped', [s0, s2, s1, s3, s4, s5], 1],
    ['a segment dropped', [s0, s1, s3, s4, s5], 2],
    ['a segment duplicated', [s0, s1, s1, s2, s3, s4, s5], 2],
    ['the last segment dropped (cut at a segment boundary)', [s0, s1, s2, s3, s4], 4],
    ['the last segment cut by one byte', [s0, s1, s2, s3, s4, s5.subarray(0, s5.length - 1)], 5],
    ['a segment appended', [s0, s1, s2, s3, s4, s5, s1], 5],
    ['one byte appended', [s0, s1, s2, s3, s4, s5, Buffer.from([0])], 5],
    ['the last segment moved first', [s5, s0, s1, s2, s3, s4], 0],
    ['a ciphertext byte flipped', [s0, s1, flipped(s2, 100), s3, s4, s5], 2],
  ];
  for (const [what, parts, segment] of cases) {
    const error = await t.throwsAsync(decrypt(alice, Buffer.concat([header, ...parts])), { instanceOf: StreamDecryptError }, what);
    t.is(error?.code, 'STREAM_DECRYPT_FAILED', what);
    t.is(error?.segment, segment, what);
  }
});

test('a stream cut inside its header, right after it, or inside the last tag is malformed', async (t) => {
  const { alice, header, segments } = await tamperStage(t);
  const cases: [string, Buffer][] = [
    ['cut inside the header', header.subarray(0, 40)],
    ['cut before the header length', header.subarray(0, 4)],
    ['nothing after the header', header],
    ['less than a tag after the last full segment', Buffer.concat([header, ...segments.slice(0, 5), segments[5]!.subarray(0, 15)])],
    ['nothing at all', Buffer.alloc(0)],
  ];
  for (const [what, stream] of cases) {
    const error = await t.throwsAsync(decrypt(alice, stream), { instanceOf: StreamFormatError }, what);
    t.is(error?.code, 'STREAM_MALFORMED', what);
  }
});

test('a flipped header byte fails: the format refuses it, the gateway refuses the blob, or no segment authenticates', async (t) => {
  const { alice, sealed, header } = await tamperStage(t);
  const ttagLength = header.readUInt16BE(54);
  const blobAt = 58 + ttagLength;
  const cases: [string, number, (error: unknown) => boolean][] = [
    ['the magic', 0, isCode('STREAM_MALFORMED')],
    ['the format version', 4, isCode('STREAM_MALFORMED')],
    ['the header length', 6, isCode('STREAM_MALFORMED')],
    ['the segment size (another size in range)', 9, isCode('STREAM_DECRYPT_FAILED')],
    ['the segment size (out of range)', 7, isCode('STREAM_MALFORMED')],
    ['the version', 14, isCode('STREAM_MALFORMED')],
    ['the salt', 20, isCode('STREAM_DECRYPT_FAILED')],
    ['the nonce prefix', 50, isCode('STREAM_DECRYPT_FAILED')],
    ['the ttag length', 55, isCode('STREAM_MALFORMED')],
    ['the ttag', 60, (error) => error instanceof KeygateApiError],
    ['the blob length', blobAt - 1, isCode('STREAM_MALFORMED')],
    ["the blob's sealed data key", blobAt + 20, (error) => error instanceof KeygateApiError && error.code === 'DECRYPT_FAILED'],
    ['the context length', header.length - 1, isCode('STREAM_MALFORMED')],
  ];
  for (const [what, offset, expected] of cases) {
    const error = await t.throwsAsync(decrypt(alice, flipped(sealed, offset)), undefined, what);
    t.true(expected(error), `${what}: ${String(error)}`);
  }
});

test("another blob of the same length spliced into the header fails: another key's blob at the gateway, the same key's at segment 0", async (t) => {
  const { alice, ttag, sealed, header } = await tamperStage(t);
  const blobAt = 58 + header.readUInt16BE(54);
  const blobOf = (stream: Buffer) => stream.subarray(blobAt, blobAt + 66);
  const { ttag: other } = await alice.createKey({ keyLen: 16 });
  const otherKeys = await encrypt(alice, other, Buffer.from('x'), SMALL);
  const sameKeys = await encrypt(alice, ttag, Buffer.from('x'), SMALL);
  const splice = (blob: Buffer) => Buffer.concat([sealed.subarray(0, blobAt), blob, sealed.subarray(blobAt + 66)]);

  const refused = await t.throwsAsync(decrypt(alice, splice(blobOf(otherKeys))), { instanceOf: KeygateApiError });
  t.like(refused, { status: 400, code: 'DECRYPT_FAILED' });
  const failed = await t.throwsAsync(decrypt(alice, splice(blobOf(sameKeys))), { instanceOf: StreamDecryptError });
  t.is(failed?.segment, 0);
});

test('a reader that names the key refuses a stream under another one before asking the gateway', async (t) => {
  const { alice, sealed } = await tamperStage(t);
  const { ttag: other } = await alice.createKey({});
  const error = await t.throwsAsync(decrypt(alice, sealed, { ttag: other }), { instanceOf: StreamKeyMismatchError });
  t.is(error?.code, 'STREAM_KEY_MISMATCH');
});

test('a principal that may encrypt under the key but not decrypt makes streams it cannot read: ACL_DENIED', async (t) => {
  const gw = await startGateway(t);
  const { alice, ttag } = await aliceWithKey(gw);
  await alice.setAclEntry(ttag, 'bob', ['encrypt']);
  const bob = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('bob', PASSWORDS.bob);
  const data = randomBytes(SMALL + 1);

  const sealed = await encrypt(bob, ttag, data, SMALL);

  const refused = await t.throwsAsync(decrypt(bob, sealed), { instanceOf: KeygateApiError });
  t.like(refused, { status: 403, code: 'ACL_DENIED' });
  t.true((await decrypt(alice, sealed)).equals(data), 'the owner reads it');
  const carol = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('carol', PASSWORDS.carol);
  const denied = await t.throwsAsync(encrypt(carol, ttag, data), { instanceOf: KeygateApiError });
  t.like(denied, { status: 403, code: 'ACL_DENIED' });
});

test('a segment size out of range is refused when the stream is made', (t) => {
  const session = {} as KeygateSession;
  for (const segmentSize of [0, 4095, 4 * 1024 * 1024 + 1, 1.5]) {
    t.throws(() => encryptStream(session, 'AAAAAAAAAAAAAAAAAAAAAA==', { segmentSize }), { instanceOf: RangeError }, String(segmentSize));
  }
});

function flipped(bytes: Buffer, offset: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[offset]! ^= 0x01;
  return copy;
}

function isCode(code: string): (error: unknown) => boolean {
  return (error) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
