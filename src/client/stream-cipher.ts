import { type Bytes, fromBase64, toBase64 } from './base64.js';
import type { KeygateSession } from './keygate-session.js';
import { StreamFormatError, StreamKeyMismatchError } from './stream-errors.js';
import { newHeader, SEGMENT_SIZE, type StreamHeader, segmentKey, TAG_BYTES } from './stream-format.js';
import { HeaderReader, SegmentCipher, Segmenter } from './stream-segments.js';

/** What a stream needs of a session: the two data-key requests (docs/spec.md §4.5a). */
export type StreamSession = Pick<KeygateSession, 'generateDataKey' | 'openDataKey'>;

export interface EncryptStreamOptions {
  /** Plaintext bytes per segment, 4,096 to 4,194,304; 262,144 (256 KiB) when not given. */
  readonly segmentSize?: number;
}

export interface DecryptStreamOptions {
  /** The key the stream must be under; a header naming another is STREAM_KEY_MISMATCH before any request. */
  readonly ttag?: string;
}

/**
 * Encrypts a byte stream of any size under a fresh data key of `ttag` (docs/spec.md §4.5a, Streams):
 * one POST /api/crypto/datakey per stream, its answer wrapped to a fresh non-extractable ECDH key and
 * imported at once as a non-extractable HKDF key; then the header, then AES-256-GCM segments.
 *
 * ```ts
 * await file.stream().pipeThrough(encryptStream(session, ttag)).pipeTo(destination);
 * ```
 */
export function encryptStream(
  session: StreamSession,
  ttag: string,
  options: EncryptStreamOptions = {},
): TransformStream<Uint8Array, Uint8Array> {
  const segmentSize = options.segmentSize ?? SEGMENT_SIZE.default;
  if (!Number.isInteger(segmentSize) || segmentSize < SEGMENT_SIZE.min || segmentSize > SEGMENT_SIZE.max) {
    throw new RangeError(`segmentSize ${segmentSize} is not between ${SEGMENT_SIZE.min} and ${SEGMENT_SIZE.max}`);
  }
  const ttagBytes = ttagOf(ttag);
  const segmenter = new Segmenter(segmentSize);
  let cipher: SegmentCipher;
  return new TransformStream<Uint8Array, Uint8Array>({
    async start(controller) {
      const made = await session.generateDataKey(ttag, { keyLen: 32 });
      const dataKey = made.key;
      if (dataKey === undefined) throw new TypeError('the data key was not delivered');
      let header: StreamHeader;
      try {
        header = newHeader({ segmentSize, version: made.version, ttag: ttagBytes, blob: fromBase64(made.blob) });
      } catch (error) {
        dataKey.fill(0);
        throw error;
      }
      cipher = new SegmentCipher(await segmentKey(dataKey, header, 'encrypt'), header);
      controller.enqueue(header.bytes);
    },
    transform(chunk, controller) {
      return cipher.seal(segmenter.push(chunk), false, (segment) => controller.enqueue(segment));
    },
    flush(controller) {
      return cipher.seal([segmenter.rest()], true, (segment) => controller.enqueue(segment));
    },
  });
}

/**
 * Decrypts a stream `encryptStream` made: the header names the key and holds the data key's blob,
 * opened with one POST /api/crypto/datakey/open to a fresh non-extractable ECDH key. Each segment's
 * plaintext is handed on once its tag verifies; what was handed on is whole only when the stream ends
 * without an error (StreamDecryptError, StreamFormatError, or the gateway's KeygateApiError).
 */
export function decryptStream(session: StreamSession, options: DecryptStreamOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const expected = options.ttag === undefined ? undefined : ttagOf(options.ttag);
  const headerReader = new HeaderReader();
  let segmenter: Segmenter | undefined;
  let cipher: SegmentCipher;
  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      let rest: Uint8Array = chunk;
      if (segmenter === undefined) {
        const read = headerReader.push(chunk);
        if (read === undefined) return;
        rest = read.rest.slice(); // held across the request below, so not a view of the caller's chunk
        cipher = new SegmentCipher(await openKey(session, read.header, expected), read.header);
        segmenter = new Segmenter(read.header.segmentSize + TAG_BYTES);
      }
      await cipher.open(segmenter.push(rest), false, (plaintext) => controller.enqueue(plaintext));
    },
    flush(controller) {
      if (segmenter === undefined) throw new StreamFormatError('the stream ends inside its header');
      const last = segmenter.rest();
      if (last.length < TAG_BYTES) throw new StreamFormatError('the stream ends without its last segment');
      return cipher.open([last], true, (plaintext) => controller.enqueue(plaintext));
    },
  });
}

/** The segment key of a header: its blob opened by the gateway, wrapped to a key made for this request. */
async function openKey(session: StreamSession, header: StreamHeader, expected: Bytes | undefined): Promise<CryptoKey> {
  if (expected !== undefined && !sameBytes(expected, header.ttag)) {
    throw new StreamKeyMismatchError('the stream is under another key than the one expected');
  }
  const opened = await session.openDataKey(toBase64(header.ttag), toBase64(header.blob));
  if (opened.version !== header.version) {
    opened.key.fill(0);
    throw new StreamFormatError(`the gateway opened the blob as version ${opened.version}, the header says ${header.version}`);
  }
  return segmentKey(opened.key, header, 'decrypt');
}

function ttagOf(ttag: string): Bytes {
  try {
    return fromBase64(ttag);
  } catch {
    throw new TypeError('the ttag is not base64');
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}
