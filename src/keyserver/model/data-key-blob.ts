import { hkdfSync } from 'node:crypto';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import { isKeyLength, type KeyLength } from '../../wire/key-length.js';
import { checkedCanonicalContext, GCM_IV_BYTES, GCM_TAG_BYTES, gcmDecrypt, gcmEncrypt } from './data-crypto.js';
import { DecryptFailedError } from './key-server-errors.js';

/**
 * A data key sealed under a version of a key (docs/spec.md §4.5a item 5): format `0x01`, the version
 * (4 bytes, big-endian), the data key's length, a 12-byte iv, the ciphertext, the 16-byte tag. The
 * seal is AES-256-GCM under HKDF-SHA256(version's raw key, empty salt, `keygate datakey blob v1`)
 * with the 6-byte header followed by the canonical form of the encryption context (nothing for none,
 * docs/spec.md §4.5b item 2) as additional data: the derivation keeps blobs apart from the ciphertexts
 * of the encrypt operation, which the decrypt operation would otherwise open in clear, and the context
 * must be the same to open it.
 */
export const DATA_KEY_BLOB_FORMAT = 0x01;
export const DATA_KEY_BLOB_INFO = 'keygate datakey blob v1';
const HEADER_BYTES = 6;
const SEAL_KEY_BYTES = 32;

/** What a blob's header says, read before the key version is looked up. */
export interface DataKeyBlobHeader {
  readonly version: number;
  readonly keyLen: KeyLength;
}

/** Seals `dataKey` under the raw key `material` of `version`, with the caller's fresh 12-byte `iv`, bound to `context`. */
export function sealDataKey(
  material: Uint8Array,
  version: number,
  dataKey: Uint8Array,
  iv: Uint8Array,
  context?: EncryptionContext,
): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = DATA_KEY_BLOB_FORMAT;
  header.writeUInt32BE(version, 1);
  header[5] = dataKey.length;
  const additional = Buffer.concat([header, checkedCanonicalContext(context)]);
  const sealKey = blobKey(material);
  try {
    const sealed = gcmEncrypt(sealKey, iv, dataKey, additional);
    return Buffer.concat([header, iv, sealed.ciphertext, sealed.authTag]);
  } finally {
    sealKey.fill(0);
  }
}

/** The header of a blob; one not of the layout (length, format, key length) is DECRYPT_FAILED. */
export function readDataKeyHeader(blob: Uint8Array): DataKeyBlobHeader {
  const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const keyLen = bytes.length > HEADER_BYTES ? bytes[5] : undefined;
  if (bytes[0] !== DATA_KEY_BLOB_FORMAT || !isKeyLength(keyLen) || bytes.length !== HEADER_BYTES + GCM_IV_BYTES + keyLen + GCM_TAG_BYTES) {
    throw new DecryptFailedError('the blob is not a data-key blob of this key server');
  }
  return { version: bytes.readUInt32BE(1), keyLen };
}

/**
 * The data key (a fresh array its caller zeroes); DECRYPT_FAILED when the tag does not verify, as it
 * does not under another context than the blob's.
 */
export function openDataKey(material: Uint8Array, blob: Uint8Array, context?: EncryptionContext): Buffer {
  const { keyLen } = readDataKeyHeader(blob);
  const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const ivEnd = HEADER_BYTES + GCM_IV_BYTES;
  const additional = Buffer.concat([bytes.subarray(0, HEADER_BYTES), checkedCanonicalContext(context)]);
  const sealKey = blobKey(material);
  try {
    return gcmDecrypt(
      sealKey,
      bytes.subarray(HEADER_BYTES, ivEnd),
      { ciphertext: bytes.subarray(ivEnd, ivEnd + keyLen), authTag: bytes.subarray(ivEnd + keyLen) },
      additional,
    );
  } finally {
    sealKey.fill(0);
  }
}

function blobKey(material: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), DATA_KEY_BLOB_INFO, SEAL_KEY_BYTES));
}
