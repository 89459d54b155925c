import { createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import test from 'ava';
import { encryptStream, KeygateClient, type KeygateSession } from '../../src/client/index.js';
import { type ApiSession, pathTtag, signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';
import { specClientKey, specUnwrap } from '../_support/spec-unwrap.js';

/**
 * docs/spec.md §4.5a (Streams), read by a decoder written from the spec alone with node:crypto: the
 * header's fields, the blob opened with the key version fetched by export (§3.2, §4.5a item 5), the
 * segment key by HKDF, and each segment by AES-256-GCM with its counter-and-flag nonce. Nothing of
 * src/ reads the stream; encryptStream only writes it.
 */

const SEGMENT = 4096;

/** The raw key of a version by export, opened by the spec-written unwrap of §3.2 (info `keygate export v1`). */
async function exportVersion(session: ApiSession, ttag: string, version: number): Promise<Buffer> {
  const client = specClientKey();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return specUnwrap(reply.body.wrapped, client.ecdh, 'keygate export v1');
}

function gcmOpen(key: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer, aad?: Buffer): Buffer {
  const decipher = createDecipheriv(key.length === 32 ? 'aes-256-gcm' : key.length === 24 ? 'aes-192-gcm' : 'aes-128-gcm', key, iv);
  if (aad !== undefined) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

interface Header {
  readonly length: number;
  readonly segmentSize: number;
  readonly version: number;
  readonly salt: Buffer;
  readonly noncePrefix: Buffer;
  readonly ttag: string;
  readonly blob: Buffer;
  /** The context's canonical form (§4.5b item 2) as the header holds it: `C` bytes, empty for none. */
  readonly context: Buffer;
}

/** Streams item 1: the header's table, field by field. */
function readHeader(stream: Buffer): Header {
  if (stream.subarray(0, 4).toString('latin1') !== 'KGST' || stream[4] !== 1) throw new Error('not a version 1 stream');
  const length = stream.readUInt16BE(5);
  const ttagLength = stream.readUInt16BE(54);
  const blobLength = stream.readUInt16BE(56 + ttagLength);
  const contextLength = stream.readUInt16BE(58 + ttagLength + blobLength);
  if (length !== 60 + ttagLength + blobLength + contextLength) throw new Error('bad lengths');
  return {
    length,
    segmentSize: stream.readUInt32BE(7),
    version: stream.readUInt32BE(11),
    salt: stream.subarray(15, 47),
    noncePrefix: stream.subarray(47, 54),
    ttag: stream.subarray(56, 56 + ttagLength).toString('base64'),
    blob: stream.subarray(58 + ttagLength, 58 + ttagLength + blobLength),
    context: stream.subarray(60 + ttagLength + blobLength, length),
  };
}

/**
 * §4.5a item 5: the blob sealed under HKDF(version key, empty salt, `keygate datakey blob v1`), its
 * first 6 bytes followed by the canonical context (the header's `C` bytes) the additional data.
 */
function openBlob(blob: Buffer, versionKey: Buffer, context: Buffer): Buffer {
  const keyLen = blob[5]!;
  const sealKey = Buffer.from(hkdfSync('sha256', versionKey, Buffer.alloc(0), 'keygate datakey blob v1', 32));
  const aad = Buffer.concat([blob.subarray(0, 6), context]);
  return gcmOpen(sealKey, blob.subarray(6, 18), blob.subarray(18, 18 + keyLen), blob.subarray(18 + keyLen), aad);
}

/**
 * §4.5b item 2, read from its words: the prefix `keygate context v1`, a count byte, then per member a
 * name length byte, the name, a 2-byte value length and the UTF-8 value; empty bytes are no context.
 */
function readContext(bytes: Buffer): Record<string, string> {
  if (bytes.length === 0) return {};
  if (bytes.subarray(0, 18).toString('latin1') !== 'keygate context v1') throw new Error('not a canonical context');
  const context: Record<string, string> = {};
  let at = 19;
  for (let member = 0; member < bytes[18]!; member += 1) {
    const name = bytes.subarray(at + 1, at + 1 + bytes[at]!).toString('ascii');
    at += 1 + bytes[at]!;
    const valueLength = bytes.readUInt16BE(at);
    context[name] = bytes.subarray(at + 2, at + 2 + valueLength).toString('utf8');
    at += 2 + valueLength;
  }
  if (at !== bytes.length) throw new Error('bytes after the last member');
  return context;
}

/** Streams items 2-4: the segment key, then pieces of S + 16 bytes, the one the stream ends with flagged last; each piece opened or not. */
function decodeSegments(stream: Buffer, header: Header, dataKey: Buffer): (Buffer | Error)[] {
  const hash = createHash('sha256').update(stream.subarray(0, header.length)).digest();
  const info = Buffer.concat([Buffer.from('keygate stream v1', 'ascii'), hash]);
  const key = Buffer.from(hkdfSync('sha256', dataKey, header.salt, info, 32));
  const body = stream.subarray(header.length);
  const pieceSize = header.segmentSize + 16;
  const count = Math.max(1, Math.ceil(body.length / pieceSize));
  const out: (Buffer | Error)[] = [];
  for (let i = 0; i < count; i += 1) {
    const piece = body.subarray(i * pieceSize, (i + 1) * pieceSize);
    const nonce = Buffer.alloc(12);
    header.noncePrefix.copy(nonce, 0);
    nonce.writeUInt32BE(i, 7);
    nonce[11] = i === count - 1 ? 1 : 0;
    try {
      out.push(gcmOpen(key, nonce, piece.subarray(0, piece.length - 16), piece.subarray(piece.length - 16)));
    } catch (error) {
      out.push(error as Error);
    }
  }
  return out;
}

function decodeStream(stream: Buffer, header: Header, dataKey: Buffer): Buffer {
  const segments = decodeSegments(stream, header, dataKey);
  const failed = segments.find((segment) => segment instanceof Error);
  if (failed !== undefined) throw failed;
  return Buffer.concat(segments as Buffer[]);
}

async function encrypted(
  session: KeygateSession,
  ttag: string,
  data: Buffer,
  segmentSize: number,
  context?: Record<string, string>,
): Promise<Buffer> {
  const sealed = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  }).pipeThrough(encryptStream(session, ttag, { segmentSize, ...(context === undefined ? {} : { context }) }));
  const reader = sealed.getReader();
  const parts: Uint8Array[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return Buffer.concat(parts);
}

test('a decoder written from the spec with node:crypto reads what encryptStream wrote, under the newest version', async (t) => {
  const gw = await startGateway(t);
  const api = await signIn(gw, 'alice');
  const alice = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('alice', PASSWORDS.alice);
  const { ttag } = await alice.createKey({ keyLen: 16 });
  t.is((await api.post(`/api/keys/${pathTtag(ttag)}/rotate`)).status, 200);

  for (const size of [0, 1, SEGMENT - 1, SEGMENT, SEGMENT + 1, 5 * SEGMENT + 77]) {
    const data = randomBytes(size);
    const stream = await encrypted(alice, ttag, data, SEGMENT);
    const header = readHeader(stream);
    t.deepEqual([header.segmentSize, header.version, header.ttag], [SEGMENT, 2, ttag]);
    t.is(header.blob.readUInt32BE(1), 2, "the blob's own version");
    const dataKey = openBlob(header.blob, await exportVersion(api, ttag, header.version), header.context);
    t.is(dataKey.length, 32);
    t.true(decodeStream(stream, header, dataKey).equals(data), `${size} bytes`);
  }
});

test('the same decoder refuses a stream whose last segment was cut off at a boundary: the flag of the new last one does not match', async (t) => {
  const gw = await startGateway(t);
  const api = await signIn(gw, 'alice');
  const alice = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('alice', PASSWORDS.alice);
  const { ttag } = await alice.createKey({});
  const stream = await encrypted(alice, ttag, randomBytes(2 * SEGMENT + 1), SEGMENT);
  const header = readHeader(stream);
  const dataKey = openBlob(header.blob, await exportVersion(api, ttag, header.version), header.context);
  t.throws(() => decodeStream(stream.subarray(0, stream.length - 17), header, dataKey), { message: /authenticate/ });
});

test("the decoder reads the header's context from C bytes, opens the blob with it, and one changed context byte fails every segment", async (t) => {
  const gw = await startGateway(t);
  const api = await signIn(gw, 'alice');
  const alice = await new KeygateClient({ baseUrl: gw.url, now: () => gw.clock.now() }).login('alice', PASSWORDS.alice);
  const { ttag } = await alice.createKey({ keyLen: 32 });
  const context = { tenant: 'acme', 'doc/id': 'r\u00e9sum\u00e9 \u{1F511}', a: '' };
  const data = randomBytes(3 * SEGMENT + 10);
  const stream = await encrypted(alice, ttag, data, SEGMENT, context);

  const header = readHeader(stream);
  t.deepEqual(readContext(header.context), context);
  t.deepEqual(Object.keys(readContext(header.context)), ['a', 'doc/id', 'tenant'], 'names in ascending byte order');
  const versionKey = await exportVersion(api, ttag, header.version);
  t.throws(() => openBlob(header.blob, versionKey, Buffer.alloc(0)), undefined, 'the blob does not open without its context');
  const dataKey = openBlob(header.blob, versionKey, header.context);
  t.true(decodeStream(stream, header, dataKey).equals(data));

  const changed = Buffer.from(stream);
  changed[header.length - 1]! ^= 0x01; // the last byte of the last value, still a canonical form
  const segments = decodeSegments(changed, readHeader(changed), dataKey);
  t.is(segments.length, 4);
  t.true(
    segments.every((segment) => segment instanceof Error),
    'the segment key hashes the whole header, its context included',
  );
});
