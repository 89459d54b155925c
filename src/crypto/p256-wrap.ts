import { createCipheriv, createDecipheriv, createECDH, hkdfSync } from 'node:crypto';
import type { RandomSource } from './random-source.js';

/**
 * The wrap of a key to a client's ephemeral P-256 key (docs/spec.md §3.2): ECDH P-256 -> HKDF-SHA256
 * (32 bytes, an `info` naming what is wrapped) -> AES-256-GCM, 12-byte iv, 16-byte tag, no additional
 * data. The gateway wraps an export with it, the key server a data key (docs/spec.md §4.5a item 4):
 * one implementation, shared by both sides. All members are standard base64.
 */
export interface WrappedKey {
  readonly gatewayPubKey: string;
  readonly salt: string;
  readonly iv: string;
  readonly ciphertext: string;
  readonly authTag: string;
}

export const WRAP_CURVE = 'prime256v1';
/** The HKDF `info` of an export's wrap (docs/spec.md §3.2). */
export const EXPORT_WRAP_INFO = 'keygate export v1';
/** The HKDF `info` of a data key's wrap (docs/spec.md §4.5a item 4): a wrapped export is no wrapped data key. */
export const DATAKEY_WRAP_INFO = 'keygate datakey v1';
export type WrapInfo = typeof EXPORT_WRAP_INFO | typeof DATAKEY_WRAP_INFO;
export const WRAP_SALT_BYTES = 16;
export const WRAP_IV_BYTES = 12;
export const WRAP_TAG_BYTES = 16;
export const WRAP_AES_KEY_BYTES = 32;
/** Uncompressed P-256 point: 0x04 || X || Y. */
export const CLIENT_PUBLIC_KEY_BYTES = 65;

/** The BAD_REQUEST a side raises for a refused `clientPubKey`, as its own error class. */
export type ClientKeyError = new (detail: string, cause?: unknown) => Error;

/** The form checks of `clientPubKey` (docs/spec.md §3.1): 65 bytes, leading 0x04. The curve is checked by the ECDH. */
export function checkClientPointForm(point: Uint8Array, BadRequest: ClientKeyError): void {
  if (point.length !== CLIENT_PUBLIC_KEY_BYTES) {
    throw new BadRequest(`clientPubKey: expected ${CLIENT_PUBLIC_KEY_BYTES} bytes, got ${point.length}`);
  }
  if (point[0] !== 0x04) throw new BadRequest('clientPubKey: not an uncompressed point (0x04 prefix)');
}

/** A wrap with everything but the key done: `seal` finishes it, `dispose` drops it unused. */
export interface PreparedWrap {
  seal(key: Uint8Array): WrappedKey;
  dispose(): void;
}

/**
 * The part of the wrap that needs no key material: a fresh ephemeral key pair, the ECDH secret with
 * the client's raw point, salt, iv, and the HKDF-SHA256 AES key, all on raw bytes. The ECDH step
 * decodes the point through OpenSSL, which refuses one off the curve: `BadRequest`.
 * `clientPublicKey` must have passed `checkClientPointForm`.
 */
export function prepareWrap(clientPublicKey: Uint8Array, random: RandomSource, info: WrapInfo, BadRequest: ClientKeyError): PreparedWrap {
  const ecdh = ephemeralKeyPair(random);
  let sharedX: Buffer;
  try {
    sharedX = ecdh.computeSecret(clientPublicKey);
  } catch (cause) {
    throw new BadRequest('clientPubKey: not a point on P-256', cause);
  }
  const salt = Buffer.from(random.bytes(WRAP_SALT_BYTES));
  const iv = Buffer.from(random.bytes(WRAP_IV_BYTES));
  const aesKey = Buffer.from(hkdfSync('sha256', sharedX, salt, info, WRAP_AES_KEY_BYTES));
  sharedX.fill(0);
  const gatewayPubKey = ecdh.getPublicKey('base64');
  return {
    seal(key) {
      try {
        const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
        const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
        return {
          gatewayPubKey,
          salt: salt.toString('base64'),
          iv: iv.toString('base64'),
          ciphertext: ciphertext.toString('base64'),
          authTag: cipher.getAuthTag().toString('base64'),
        };
      } finally {
        aesKey.fill(0);
      }
    },
    dispose: () => void aesKey.fill(0),
  };
}

/**
 * The client side, for Node clients: derives the same AES key from the ephemeral public key and the
 * client's private scalar, then opens the envelope. Throws when it was tampered with (GCM tag).
 */
export function unwrapWith(wrapped: WrappedKey, clientPrivateKey: Uint8Array, info: WrapInfo): Buffer {
  const ecdh = createECDH(WRAP_CURVE);
  ecdh.setPrivateKey(Buffer.from(clientPrivateKey));
  const sharedX = ecdh.computeSecret(Buffer.from(wrapped.gatewayPubKey, 'base64'));
  const aesKey = Buffer.from(hkdfSync('sha256', sharedX, Buffer.from(wrapped.salt, 'base64'), info, WRAP_AES_KEY_BYTES));
  sharedX.fill(0);
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(wrapped.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(wrapped.authTag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(wrapped.ciphertext, 'base64')), decipher.final()]);
  } finally {
    aesKey.fill(0);
  }
}

/** A P-256 key pair from 32 random bytes; the rare scalar outside [1, n-1] is drawn again. */
function ephemeralKeyPair(random: RandomSource) {
  const ecdh = createECDH(WRAP_CURVE);
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      ecdh.setPrivateKey(Buffer.from(random.bytes(32)));
      return ecdh;
    } catch {
      // out of range for the curve order: draw again
    }
  }
  throw new Error('random source produced no valid P-256 scalar in 8 draws');
}
