import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { type GcmAlg, MAC_ALG } from '../../wire/crypto-messages.js';
import { canonicalContext, contextFault, type EncryptionContext } from '../../wire/encryption-context.js';
import type { KeyLength } from '../../wire/key-length.js';
import { BadRequestError, DecryptFailedError } from './key-server-errors.js';

export { type GcmAlg, MAC_ALG };

/**
 * Data cryptography under a raw data key (docs/spec.md §4.5): AES-GCM of
 * the key's length with a 12-byte iv and a 16-byte tag, and HMAC-SHA256. A holder of the exported key
 * can check either with any AES-GCM or HMAC implementation.
 */
export const GCM_IV_BYTES = 12;
export const GCM_TAG_BYTES = 16;

const ALG_BY_LENGTH: Readonly<Record<KeyLength, GcmAlg>> = { 16: 'A128GCM', 24: 'A192GCM', 32: 'A256GCM' };

export function gcmAlgFor(keyLen: KeyLength): GcmAlg {
  return ALG_BY_LENGTH[keyLen];
}

function cipherName(key: Uint8Array): 'aes-128-gcm' | 'aes-192-gcm' | 'aes-256-gcm' {
  if (key.length === 16) return 'aes-128-gcm';
  if (key.length === 24) return 'aes-192-gcm';
  if (key.length === 32) return 'aes-256-gcm';
  throw new RangeError(`no AES-GCM for a ${key.length}-byte key`);
}

export interface Sealed {
  readonly ciphertext: Uint8Array;
  readonly authTag: Uint8Array;
}

/** AES-GCM encryption with the caller's fresh 12-byte iv and optional additional data. */
export function gcmEncrypt(
  key: Uint8Array,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad?: Uint8Array,
): { ciphertext: Buffer; authTag: Buffer } {
  if (iv.length !== GCM_IV_BYTES) throw new BadRequestError(`iv: expected ${GCM_IV_BYTES} bytes, got ${iv.length}`);
  const cipher = createCipheriv(cipherName(key), key, iv, { authTagLength: GCM_TAG_BYTES });
  if (aad !== undefined) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { ciphertext, authTag: cipher.getAuthTag() };
}

/**
 * AES-GCM decryption; a tag that does not verify is DECRYPT_FAILED, a malformed iv or tag BAD_REQUEST.
 * The answer is a fresh array the caller owns; the pieces it was joined from are zeroed.
 */
export function gcmDecrypt(key: Uint8Array, iv: Uint8Array, sealed: Sealed, aad?: Uint8Array): Buffer {
  if (iv.length !== GCM_IV_BYTES) throw new BadRequestError(`iv: expected ${GCM_IV_BYTES} bytes, got ${iv.length}`);
  if (sealed.authTag.length !== GCM_TAG_BYTES) {
    throw new BadRequestError(`authTag: expected ${GCM_TAG_BYTES} bytes, got ${sealed.authTag.length}`);
  }
  const decipher = createDecipheriv(cipherName(key), key, iv, { authTagLength: GCM_TAG_BYTES });
  decipher.setAuthTag(sealed.authTag);
  if (aad !== undefined) decipher.setAAD(aad);
  const head = decipher.update(sealed.ciphertext);
  try {
    const tail = decipher.final();
    const plaintext = Buffer.concat([head, tail]);
    tail.fill(0);
    return plaintext;
  } catch {
    throw new DecryptFailedError();
  } finally {
    head.fill(0);
  }
}

/**
 * The additional data of encrypt, decrypt and rewrap (docs/spec.md §4.5b item 3): the context's
 * canonical form followed by `aad`. Without a context (or `{}`) it is `aad` itself, absent when absent,
 * so a ciphertext made before contexts opens as it did. A context the rule refuses is BAD_REQUEST
 * here too, whoever handed it over (the daemon's schema refuses it first).
 */
export function additionalData(context: EncryptionContext | undefined, aad: Uint8Array | undefined): Uint8Array | undefined {
  const canonical = checkedCanonicalContext(context);
  if (canonical.length === 0) return aad;
  return aad === undefined ? canonical : Buffer.concat([canonical, aad]);
}

/** The canonical form of a context (docs/spec.md §4.5b item 2), empty for none; BAD_REQUEST naming the member at fault. */
export function checkedCanonicalContext(context: EncryptionContext | undefined): Uint8Array {
  if (context === undefined) return new Uint8Array(0);
  const found = contextFault(context);
  if (found !== undefined) throw new BadRequestError(`context${found.member === '' ? '' : `.${found.member}`}: ${found.fault}`);
  return canonicalContext(context);
}

/** HMAC-SHA256 of `data` under the raw key. */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** Checks a MAC in constant time; a MAC of the wrong length is simply not valid. */
export function verifyHmacSha256(key: Uint8Array, data: Uint8Array, mac: Uint8Array): boolean {
  const expected = hmacSha256(key, data);
  if (mac.length !== expected.length) return false;
  return timingSafeEqual(expected, mac);
}
