import type { Bytes } from './base64.js';
import { TAG_BYTES } from './stream-format.js';
import { subtle } from './web-crypto.js';

/**
 * AES-256-GCM of one stream segment under the segment key (docs/spec.md §4.5a, Streams item 3): what
 * a segment's bytes go through, and all that differs between the platforms the same stream code runs
 * on. `seal` answers ciphertext || tag, in one part or more (their bytes in that order); `open` takes
 * them as one and throws when the tag does not verify.
 */
export interface SegmentAead {
  seal(iv: Bytes, piece: Bytes): Promise<readonly Bytes[]>;
  open(iv: Bytes, piece: Bytes): Promise<Bytes>;
}

/** A segment's tag is its last 16 bytes; a shorter one cannot be a segment. */
class ShortSegmentError extends Error {
  override name = 'ShortSegmentError';
}

/** What the stream takes of Node's crypto module: AES-256-GCM under a CryptoKey's own KeyObject. */
export interface NodeCipherModule {
  KeyObject: { from(key: CryptoKey): unknown };
  createCipheriv(
    algorithm: 'aes-256-gcm',
    key: unknown,
    iv: Uint8Array,
  ): { update(data: Uint8Array): Uint8Array; final(): Uint8Array; getAuthTag(): Uint8Array };
  createDecipheriv(
    algorithm: 'aes-256-gcm',
    key: unknown,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): { setAuthTag(tag: Uint8Array): unknown; update(data: Uint8Array): Uint8Array; final(): Uint8Array };
}

/** WebCrypto's AES-GCM, where the platform has nothing faster (a browser). */
export function webCryptoAead(key: CryptoKey): SegmentAead {
  return {
    seal: async (iv, piece) => [new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv }, key, piece))],
    open: async (iv, piece) => new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv }, key, piece)),
  };
}

/**
 * Node's own AES-GCM (OpenSSL, on the calling thread) over the same non-extractable key: its KeyObject,
 * never its bytes. Node's WebCrypto copies every segment into the thread pool and its answer back,
 * about half the rate of one cipher pass over the same bytes. Reached through
 * the runtime's `getBuiltinModule`, so that a bundle for the browser holds no import of Node's crypto.
 */
export function nodeAead(key: CryptoKey, crypto: NodeCipherModule): SegmentAead {
  const secret = crypto.KeyObject.from(key);
  return {
    seal: async (iv, piece) => {
      // Two parts, not one copied together: the ciphertext as the cipher answers it, then the tag.
      const cipher = crypto.createCipheriv('aes-256-gcm', secret, iv);
      const body = ownBuffer(cipher.update(piece));
      cipher.final(); // GCM holds nothing back: the tag is all it adds
      return [body, ownBuffer(cipher.getAuthTag())];
    },
    open: async (iv, piece) => {
      if (piece.length < TAG_BYTES) throw new ShortSegmentError('a segment shorter than its tag');
      // The tag's length fixed: Node's decipher would otherwise take a tag as short as 4 bytes.
      const decipher = crypto.createDecipheriv('aes-256-gcm', secret, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(piece.subarray(piece.length - TAG_BYTES));
      const plaintext = decipher.update(piece.subarray(0, piece.length - TAG_BYTES));
      decipher.final();
      return ownBuffer(plaintext);
    },
  };
}

/**
 * The bytes as a plain Uint8Array of their own: what Node answers may lie inside a pool it shares
 * with the whole process, whose other bytes a reader of `.buffer` would see; one that owns its memory
 * whole is only viewed again, not copied.
 */
function ownBuffer(bytes: Uint8Array): Bytes {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return new Uint8Array(bytes.buffer);
  }
  return new Uint8Array(bytes);
}

/** The platform's fastest AES-GCM for `key`: Node's own in Node, WebCrypto elsewhere. */
export function segmentAead(key: CryptoKey): SegmentAead {
  const crypto = nodeCrypto();
  return crypto === undefined ? webCryptoAead(key) : nodeAead(key, crypto);
}

/** Node's crypto module where the runtime is Node (20.16 and later), without an import a bundler would follow. */
function nodeCrypto(): NodeCipherModule | undefined {
  const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  return runtime.process?.getBuiltinModule?.('crypto') as NodeCipherModule | undefined;
}
