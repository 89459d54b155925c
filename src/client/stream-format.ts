import {
  CONTEXT_MEMBERS_MAX,
  CONTEXT_PREFIX,
  CONTEXT_VALUE_MAX,
  canonicalContext,
  type EncryptionContext,
  readCanonicalContext,
} from '../wire/encryption-context.js';
import { type Bytes, utf8 } from './base64.js';
import { StreamFormatError } from './stream-errors.js';
import { randomBytes, sha256, subtle } from './web-crypto.js';

/** The header's fixed values and the ranges a reader accepts (docs/spec.md §4.5a, Streams item 1). */
const MAGIC = [0x4b, 0x47, 0x53, 0x54] as const; // ASCII KGST
const FORMAT_VERSION = 1;
const SALT_BYTES = 32;
const NONCE_PREFIX_BYTES = 7;
/** Every header byte but the ttag, the blob and the context: offsets 0 to 55 and the three 2-byte lengths. */
const FIXED_BYTES = 60;
const TTAG_BYTES = { min: 16, max: 256 } as const;
const BLOB_BYTES = [50, 58, 66] as const;
/**
 * The longest canonical context (docs/spec.md §4.5b items 1-2): prefix, count, and 16 members of a
 * 128-byte name and 256 characters of at most 3 UTF-8 bytes each (a 4-byte one takes 2 characters).
 */
const CONTEXT_BYTES_MAX = CONTEXT_PREFIX.length + 1 + CONTEXT_MEMBERS_MAX * (1 + 128 + 2 + 3 * CONTEXT_VALUE_MAX);
/** Magic, format version and `H`: enough to know how long the header is. */
export const HEADER_PREFIX_BYTES = 7;
export const TAG_BYTES = 16;
export const SEGMENT_SIZE = { min: 4096, max: 4 * 1024 * 1024, default: 256 * 1024 } as const;
/** At most 2^32 segments: the counter is 4 bytes (docs/spec.md §4.5a, Streams item 3). */
export const MAX_SEGMENTS = 2 ** 32;
const INFO = 'keygate stream v1';

/** A stream's header: its fields and its bytes exactly as written (the segment key hashes those). */
export interface StreamHeader {
  readonly segmentSize: number;
  readonly version: number;
  readonly salt: Bytes;
  readonly noncePrefix: Bytes;
  readonly ttag: Bytes;
  readonly blob: Bytes;
  /** The context the blob was made with, `{}` for none; `contextBytes` its canonical form as written. */
  readonly context: EncryptionContext;
  readonly contextBytes: Bytes;
  readonly bytes: Bytes;
}

export type HeaderFields = Pick<StreamHeader, 'segmentSize' | 'version' | 'ttag' | 'blob' | 'context'>;

/**
 * A new header for a stream: a fresh random salt and nonce prefix around the data key's blob and the
 * canonical form of its context (the caller has checked the context: contextFault).
 */
export function newHeader(fields: HeaderFields): StreamHeader {
  checkFields(fields);
  const salt = randomBytes(SALT_BYTES);
  const noncePrefix = randomBytes(NONCE_PREFIX_BYTES);
  const { ttag, blob } = fields;
  const contextBytes = canonicalContext(fields.context) as Bytes;
  const bytes = new Uint8Array(FIXED_BYTES + ttag.length + blob.length + contextBytes.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  bytes[4] = FORMAT_VERSION;
  view.setUint16(5, bytes.length);
  view.setUint32(7, fields.segmentSize);
  view.setUint32(11, fields.version);
  bytes.set(salt, 15);
  bytes.set(noncePrefix, 47);
  view.setUint16(54, ttag.length);
  bytes.set(ttag, 56);
  view.setUint16(56 + ttag.length, blob.length);
  bytes.set(blob, 58 + ttag.length);
  view.setUint16(58 + ttag.length + blob.length, contextBytes.length);
  bytes.set(contextBytes, 60 + ttag.length + blob.length);
  return { ...fields, salt, noncePrefix, contextBytes, bytes };
}

/** `H` from the header's first 7 bytes, once magic and format version are checked. */
export function declaredHeaderLength(prefix: Uint8Array): number {
  if (MAGIC.some((byte, index) => prefix[index] !== byte)) throw new StreamFormatError('not a keygate stream: the magic is not KGST');
  if (prefix[4] !== FORMAT_VERSION)
    throw new StreamFormatError(`stream format version ${prefix[4]} is not supported (only ${FORMAT_VERSION})`);
  const length = ((prefix[5] ?? 0) << 8) | (prefix[6] ?? 0);
  const longest = FIXED_BYTES + TTAG_BYTES.max + BLOB_BYTES[2] + CONTEXT_BYTES_MAX;
  if (length < FIXED_BYTES + TTAG_BYTES.min + BLOB_BYTES[0] || length > longest) {
    throw new StreamFormatError(`the header length ${length} is out of range`);
  }
  return length;
}

/** Reads a whole header (`H` bytes), checking every rule of docs/spec.md §4.5a (Streams item 1). */
export function parseHeader(bytes: Bytes): StreamHeader {
  if (declaredHeaderLength(bytes) !== bytes.length) throw new StreamFormatError('the header is not as long as it says');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ttagLength = view.getUint16(54);
  if (56 + ttagLength + 2 > bytes.length) throw new StreamFormatError('the ttag runs past the header');
  const blobLength = view.getUint16(56 + ttagLength);
  const contextAt = 60 + ttagLength + blobLength;
  if (contextAt > bytes.length) throw new StreamFormatError('the blob runs past the header');
  if (contextAt + view.getUint16(contextAt - 2) !== bytes.length) throw new StreamFormatError('the header lengths disagree');
  const contextBytes = bytes.slice(contextAt);
  const fields: HeaderFields = {
    segmentSize: view.getUint32(7),
    version: view.getUint32(11),
    ttag: bytes.slice(56, 56 + ttagLength),
    blob: bytes.slice(58 + ttagLength, 58 + ttagLength + blobLength),
    context: headerContext(contextBytes),
  };
  checkFields(fields);
  return { ...fields, salt: bytes.slice(15, 47), noncePrefix: bytes.slice(47, 54), contextBytes, bytes };
}

/** The header's context: `C` bytes that are a canonical form, or none (docs/spec.md §4.5a, Streams item 1; §4.5b item 2). */
function headerContext(bytes: Bytes): EncryptionContext {
  const read = readCanonicalContext(bytes);
  if ('fault' in read) throw new StreamFormatError(`the header's context is not a canonical form: ${read.fault}`);
  return read.context;
}

function checkFields({ segmentSize, version, ttag, blob }: HeaderFields): void {
  if (!Number.isInteger(segmentSize) || segmentSize < SEGMENT_SIZE.min || segmentSize > SEGMENT_SIZE.max) {
    throw new StreamFormatError(`the segment size ${segmentSize} is not between ${SEGMENT_SIZE.min} and ${SEGMENT_SIZE.max}`);
  }
  if (ttag.length < TTAG_BYTES.min || ttag.length > TTAG_BYTES.max) throw new StreamFormatError(`a ttag of ${ttag.length} bytes`);
  if (!(BLOB_BYTES as readonly number[]).includes(blob.length)) throw new StreamFormatError(`a data key blob of ${blob.length} bytes`);
  const blobVersion = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(1);
  if (!Number.isInteger(version) || version < 1 || version !== blobVersion) {
    throw new StreamFormatError(`the header names version ${version}, its blob version ${blobVersion}`);
  }
}

/**
 * K = HKDF-SHA256(data key, the header's salt, `keygate stream v1` || SHA-256(header), 32 bytes), as a
 * non-extractable AES-GCM key (docs/spec.md §4.5a, Streams item 2). The data key's bytes are zeroed
 * here, once imported, whatever happens.
 */
export async function segmentKey(dataKey: Bytes, header: StreamHeader, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  let ikm: CryptoKey;
  try {
    ikm = await subtle().importKey('raw', dataKey, 'HKDF', false, ['deriveKey']);
  } finally {
    dataKey.fill(0);
  }
  const label = utf8(INFO);
  const info = new Uint8Array(label.length + 32);
  info.set(label);
  info.set(await sha256(header.bytes), label.length);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: header.salt, info }, ikm, { name: 'AES-GCM', length: 256 }, false, [
    usage,
  ]);
}

/** nonce prefix || segment index (4 bytes) || 0x01 for the last segment, else 0x00 (docs/spec.md §4.5a, Streams item 3). */
export function segmentNonce(prefix: Bytes, index: number, isLast: boolean): Bytes {
  const nonce = new Uint8Array(NONCE_PREFIX_BYTES + 5);
  nonce.set(prefix);
  new DataView(nonce.buffer).setUint32(NONCE_PREFIX_BYTES, index);
  nonce[NONCE_PREFIX_BYTES + 4] = isLast ? 1 : 0;
  return nonce;
}
