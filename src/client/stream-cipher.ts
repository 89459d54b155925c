import { canonicalContext, contextFault, type EncryptionContext } from '../wire/encryption-context.js';
import { type Bytes, fromBase64, toBase64 } from './base64.js';
import type { KeygateSession } from './keygate-session.js';
import { StreamContextMismatchError, StreamFormatError, StreamKeyMismatchError } from './stream-errors.js';
import { newHeader, SEGMENT_SIZE, type StreamHeader, segmentKey, TAG_BYTES } from './stream-format.js';
import { HeaderReader, SegmentCipher, Segmenter } from './stream-segments.js';

/** What a stream needs of a session: the two data-key requests (docs/spec.md §4.5a). */
export type StreamSession = Pick<KeygateSession, 'generateDataKey' | 'openDataKey'>;

export interface EncryptStreamOptions {
  /** Plaintext bytes per segment, 4,096 to 4,194,304; 262,144 (256 KiB) when not given. */
  readonly segmentSize?: number;
  /** The encryption context the data key is made with (docs/spec.md §4.5b), written in the header; none when not given. */
  readonly context?: EncryptionContext;
}

export interface DecryptStreamOptions {
  /** The key the stream must be under; a header naming another is STREAM_KEY_MISMATCH before any request. */
  readonly ttag?: string;
  /**
   * The context the stream must carry, exactly (`{}` for none); a header with another is
   * STREAM_CONTEXT_MISMATCH before any request. Not given: the header's context, whatever it is, is used.
   */
  readonly context?: EncryptionContext;
}

/**
 * Encrypts a byte stream of any size under a fresh data key of `ttag` (docs/spec.md §4.5a, Streams):
 * one POST /api/crypto/datakey per stream (with the `context` option, bound to the blob and written in
 * the header), its answer wrapped to a fresh non-extractable ECDH key and imported at once as a
 * non-extractable HKDF key; then the header, then AES-256-GCM segments.
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
  const context = checkedContext(options.context);
  const segmenter = new Segmenter(segmentSize);
  let cipher: SegmentCipher;
  return new TransformStream<Uint8Array, Uint8Array>({
    async start(controller) {
      const made = await session.generateDataKey(ttag, { keyLen: 32, context });
      const dataKey = made.key;
      if (dataKey === undefined) throw new TypeError('the data key was not delivered');
      let header: StreamHeader;
      try {
        header = newHeader({ segmentSize, version: made.version, ttag: ttagBytes, blob: fromBase64(made.blob), context: context ?? {} });
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
 * Decrypts a stream `encryptStream` made: the header names the key and holds the data key's blob and
 * its context, opened with one POST /api/crypto/datakey/open to a fresh non-extractable ECDH key. Each segment's
 * plaintext is handed on once its tag verifies; what was handed on is whole only when the stream ends
 * without an error (StreamDecryptError, StreamFormatError, or the gateway's KeygateApiError).
 */
export function decryptStream(session: StreamSession, options: DecryptStreamOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const expected: Expected = {
    ttag: options.ttag === undefined ? undefined : ttagOf(options.ttag),
    context: options.context === undefined ? undefined : canonicalContext(checkedContext(options.context)),
  };
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

/** What a reader expects of a header: its ttag's bytes, its context's canonical form; each when asked for. */
interface Expected {
  readonly ttag: Bytes | undefined;
  readonly context: Uint8Array | undefined;
}

/**
 * The segment key of a header: its blob opened by the gateway with the header's context, wrapped to a
 * key made for this request; a header other than the one expected is refused before the request.
 */
async function openKey(session: StreamSession, header: StreamHeader, expected: Expected): Promise<CryptoKey> {
  if (expected.ttag !== undefined && !sameBytes(expected.ttag, header.ttag)) {
    throw new StreamKeyMismatchError('the stream is under another key than the one expected');
  }
  if (expected.context !== undefined && !sameBytes(expected.context, header.contextBytes)) {
    throw new StreamContextMismatchError('the stream carries another encryption context than the one expected');
  }
  const opened = await session.openDataKey(toBase64(header.ttag), toBase64(header.blob), { context: header.context });
  if (opened.version !== header.version) {
    opened.key.fill(0);
    throw new StreamFormatError(`the gateway opened the blob as version ${opened.version}, the header says ${header.version}`);
  }
  return segmentKey(opened.key, header, 'decrypt');
}

/** A context option checked against docs/spec.md §4.5b item 1 before anything is asked; `undefined` stays none. */
function checkedContext(context: EncryptionContext | undefined): EncryptionContext | undefined {
  if (context === undefined) return undefined;
  const fault = contextFault(context);
  if (fault !== undefined) throw new TypeError(`the context${fault.member === '' ? '' : ` member ${fault.member}`}: ${fault.fault}`);
  return context;
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
