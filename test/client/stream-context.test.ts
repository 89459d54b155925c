import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import test from 'ava';
import {
  decryptStream,
  type EncryptStreamOptions,
  encryptStream,
  StreamContextMismatchError,
  StreamDecryptError,
  StreamFormatError,
  type StreamSession,
} from '../../src/client/index.js';
import { HOSTILE } from '../_support/hostile-text.js';

/**
 * docs/spec.md §4.5a (Streams items 1 and 5) and §4.5b: the header's encryption context, against a
 * data-key session written from §4.5a item 5 with node:crypto (the blob sealed with its first 6 bytes
 * and the canonical context as additional data), so that the context the reader sends is the one
 * that opens the blob. The gateway's side of the same requests is tested with the routes.
 */

const TTAG = Buffer.alloc(16, 7).toString('base64');
const SMALL = 4096;
type Context = Readonly<Record<string, string>>;

/** The canonical form of §4.5b item 2, written here from the spec's words. */
function canonical(context: Context | undefined): Buffer {
  const names = Object.keys(context ?? {}).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (names.length === 0) return Buffer.alloc(0);
  const members = names.map((name) => {
    const value = Buffer.from(context![name]!, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(value.length);
    return Buffer.concat([Buffer.from([name.length]), Buffer.from(name, 'ascii'), length, value]);
  });
  return Buffer.concat([Buffer.from('keygate context v1', 'ascii'), Buffer.from([names.length]), ...members]);
}

class FakeRefusal extends Error {
  readonly code = 'DECRYPT_FAILED';
}

/** A session whose data keys are sealed as §4.5a item 5 says, under one version key; it records each request's context. */
function specSession() {
  const versionKey = hkdfSync('sha256', randomBytes(32), Buffer.alloc(0), 'keygate datakey blob v1', 32);
  const asked: { op: 'generate' | 'open'; context: Context | undefined }[] = [];
  const session: StreamSession = {
    async generateDataKey(_ttag, options = {}) {
      asked.push({ op: 'generate', context: options.context });
      const key = randomBytes(32);
      const head = Buffer.from([1, 0, 0, 0, 1, 32]);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(versionKey), iv).setAAD(Buffer.concat([head, canonical(options.context)]));
      const sealed = Buffer.concat([cipher.update(key), cipher.final(), cipher.getAuthTag()]);
      return { blob: Buffer.concat([head, iv, sealed]).toString('base64'), key: new Uint8Array(key), keyLen: 32, version: 1 };
    },
    async openDataKey(_ttag, blob, options = {}) {
      asked.push({ op: 'open', context: options.context });
      const bytes = Buffer.from(blob, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(versionKey), bytes.subarray(6, 18));
      decipher.setAAD(Buffer.concat([bytes.subarray(0, 6), canonical(options.context)])).setAuthTag(bytes.subarray(50));
      try {
        return { key: new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(18, 50)), decipher.final()])), keyLen: 32, version: 1 };
      } catch {
        throw new FakeRefusal('the blob does not open');
      }
    },
  };
  return { session, asked };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return Buffer.concat(parts);
}

function once(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const encrypt = (session: StreamSession, data: Uint8Array, options: EncryptStreamOptions) =>
  collect(once(data).pipeThrough(encryptStream(session, TTAG, { segmentSize: SMALL, ...options })));
const decrypt = (session: StreamSession, stream: Uint8Array, context?: Context) =>
  collect(once(stream).pipeThrough(decryptStream(session, context === undefined ? {} : { context })));

/** Where the header's `C` and context bytes are (Streams item 1). */
function contextField(stream: Buffer): { at: number; length: number } {
  const ttagLength = stream.readUInt16BE(54);
  const blobLength = stream.readUInt16BE(56 + ttagLength);
  return { at: 60 + ttagLength + blobLength, length: stream.readUInt16BE(58 + ttagLength + blobLength) };
}

/** The stream with its header's context bytes replaced by `bytes`, `C` and `H` set to match. */
function withContextBytes(stream: Buffer, bytes: Buffer): Buffer {
  const { at, length } = contextField(stream);
  const header = Buffer.concat([stream.subarray(0, at), bytes]);
  header.writeUInt16BE(bytes.length, at - 2);
  header.writeUInt16BE(header.length, 5);
  return Buffer.concat([header, stream.subarray(at + length)]);
}

const CONTEXT = { tenant: 'acme', 'doc.id': '42', region: 'eu-west-1 \u{1F511}' };

test('the writer asks for the data key with the context and writes its canonical form as C bytes; the reader opens the blob with it', async (t) => {
  const { session, asked } = specSession();
  const data = randomBytes(3 * SMALL + 5);

  const sealed = await encrypt(session, data, { context: CONTEXT });

  const { at, length } = contextField(sealed);
  t.true(sealed.subarray(at, at + length).equals(canonical(CONTEXT)), 'the canonical form, names in ascending byte order');
  t.is(sealed.readUInt16BE(5), at + length, '`H` counts the context');
  t.true((await decrypt(session, sealed)).equals(data), 'no context option: the header says which');
  t.true((await decrypt(session, sealed, { region: CONTEXT.region, tenant: 'acme', 'doc.id': '42' })).equals(data), 'in any order');
  t.deepEqual(asked, [
    { op: 'generate', context: CONTEXT },
    { op: 'open', context: CONTEXT },
    { op: 'open', context: CONTEXT },
  ]);
});

test('a stream without a context has C = 0 and opens with none; `{}` is the same as none', async (t) => {
  const { session } = specSession();
  const data = randomBytes(SMALL + 1);
  for (const options of [{}, { context: {} }]) {
    const sealed = await encrypt(session, data, options);
    t.deepEqual(contextField(sealed).length, 0);
    t.true((await decrypt(session, sealed, {})).equals(data));
  }
});

test('a reader expecting another context refuses the header with STREAM_CONTEXT_MISMATCH before any request', async (t) => {
  const { session, asked } = specSession();
  const withContext = await encrypt(session, randomBytes(10), { context: CONTEXT });
  const without = await encrypt(session, randomBytes(10), {});
  const cases: [string, Buffer, Context][] = [
    ['another value', withContext, { ...CONTEXT, tenant: 'acmf' }],
    ['a member fewer', withContext, { tenant: 'acme', 'doc.id': '42' }],
    ['a member more', withContext, { ...CONTEXT, extra: '' }],
    ['none expected, the header has one', withContext, {}],
    ['one expected, the header has none', without, { tenant: 'acme' }],
  ];
  asked.length = 0;
  for (const [what, stream, expected] of cases) {
    const error = await t.throwsAsync(decrypt(session, stream, expected), { instanceOf: StreamContextMismatchError }, what);
    t.is(error?.code, 'STREAM_CONTEXT_MISMATCH', what);
  }
  t.deepEqual(asked, [], 'the gateway was never asked');
});

test('header context bytes that are not a canonical form are STREAM_MALFORMED before any request', async (t) => {
  const { session, asked } = specSession();
  const sealed = await encrypt(session, randomBytes(10), { context: { a: '1', b: '2' } });
  const good = canonical({ a: '1', b: '2' });
  const swapped = Buffer.concat([good.subarray(0, 19), good.subarray(24), good.subarray(19, 24)]);
  const cases: [string, Buffer][] = [
    ['names out of order', swapped],
    ['a name twice', Buffer.concat([good.subarray(0, 19), good.subarray(19, 24), good.subarray(19, 24)])],
    ['another prefix', Buffer.concat([Buffer.from('keygate context v2'), good.subarray(18)])],
    ['a count of 0', Buffer.concat([good.subarray(0, 18), Buffer.from([0])])],
    ['a count above the members', Buffer.concat([good.subarray(0, 18), Buffer.from([3]), good.subarray(19)])],
    ['a byte after the last member', Buffer.concat([good, Buffer.from([0])])],
    ['a name outside the set', Buffer.from(good).fill(0x20, 20, 21)],
    ['a value with a control character', Buffer.from(good).fill(0x07, 23, 24)],
    ['a value that is not UTF-8', Buffer.from(good).fill(0xff, 23, 24)],
    ['the prefix alone', Buffer.from('keygate context v1')],
  ];
  for (const [what, bytes] of cases) {
    const error = await t.throwsAsync(decrypt(session, withContextBytes(sealed, bytes)), { instanceOf: StreamFormatError }, what);
    t.is(error?.code, 'STREAM_MALFORMED', what);
  }
  t.false(
    asked.some((each) => each.op === 'open'),
    'the gateway was never asked',
  );
});

test('one changed byte of the header context fails: the blob does not open with it, nor any segment under the first context', async (t) => {
  const { session } = specSession();
  const sealed = await encrypt(session, randomBytes(3 * SMALL), { context: { tenant: 'acme' } });
  const changed = withContextBytes(sealed, canonical({ tenant: 'acmf' }));
  await t.throwsAsync(decrypt(session, changed), { instanceOf: FakeRefusal }, 'the blob is bound to the context');

  const openedWithFirst: StreamSession = {
    generateDataKey: session.generateDataKey,
    openDataKey: (ttag, blob) => session.openDataKey(ttag, blob, { context: { tenant: 'acme' } }),
  };
  const failed = await t.throwsAsync(decrypt(openedWithFirst, changed), { instanceOf: StreamDecryptError });
  t.is(failed?.segment, 0, 'the segment key hashes the whole header, context included');
});

test('a context option that breaks §4.5b item 1 is refused when the stream is made, before any request', (t) => {
  const { session, asked } = specSession();
  const many = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`n${index}`, 'v']));
  const cases: [string, Context][] = [
    ['17 members', many],
    ['a name outside the set', { 'a b': 'v' }],
    ['an empty name', { '': 'v' }],
    ['a name of 129 bytes', { ['n'.repeat(129)]: 'v' }],
    ['a value of 257 characters', { n: 'v'.repeat(257) }],
    ['a value that is not a string', { n: 42 as unknown as string }],
    ...HOSTILE.filter((each) => each.forbidden !== 'never' || each.value.length > 256).map((each): [string, Context] => [
      each.what,
      { n: each.value },
    ]),
  ];
  for (const [what, context] of cases) {
    t.throws(() => encryptStream(session, TTAG, { context }), { instanceOf: TypeError }, what);
    t.throws(() => decryptStream(session, { context }), { instanceOf: TypeError }, what);
  }
  t.deepEqual(asked, []);
});

test('hostile text the rule allows in a value (astral characters, combining marks) goes through the header and back', async (t) => {
  const { session } = specSession();
  const data = randomBytes(100);
  for (const each of HOSTILE.filter((hostile) => hostile.forbidden === 'never' && hostile.value.length <= 256)) {
    const context = { n: each.value, [`${each.what.length}`]: each.value };
    const sealed = await encrypt(session, data, { context });
    t.true((await decrypt(session, sealed, context)).equals(data), each.what);
  }
});
