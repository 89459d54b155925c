import { createCipheriv, createECDH, hkdfSync } from 'node:crypto';
import type { RandomSource } from '../../crypto/random-source.js';
import { BadRequestError } from '../errors/common.errors.js';
import { WRAP_AES_KEY_BYTES, WRAP_CURVE, WRAP_HKDF_INFO, WRAP_IV_BYTES, WRAP_SALT_BYTES, type WrappedKey } from './keywrap.js';

/** A wrap with everything but the data key done: `seal` finishes it, `dispose` drops it unused. */
export interface PreparedWrap {
  seal(dataKey: Uint8Array): WrappedKey;
  dispose(): void;
}

/**
 * The part of the export wrap (docs/spec.md §3.2) that needs no key material: a fresh
 * gateway keypair, the ECDH secret with the client's raw point, salt, iv, and the HKDF-SHA256 AES key,
 * all on raw bytes (no KeyObject round trips). It can run while the key server is asked. The ECDH
 * step decodes the point through OpenSSL, which refuses one off the curve: a bad request.
 * `clientPublicKey` must be a 65-byte uncompressed point (`decodeClientPublicKey`).
 */
export function prepareWrap(clientPublicKey: Uint8Array, random: RandomSource): PreparedWrap {
  const ecdh = ephemeralKeyPair(random);
  let sharedX: Buffer;
  try {
    sharedX = ecdh.computeSecret(clientPublicKey);
  } catch (cause) {
    throw new BadRequestError('clientPubKey: not a point on P-256', cause);
  }
  const salt = Buffer.from(random.bytes(WRAP_SALT_BYTES));
  const iv = Buffer.from(random.bytes(WRAP_IV_BYTES));
  const aesKey = Buffer.from(hkdfSync('sha256', sharedX, salt, WRAP_HKDF_INFO, WRAP_AES_KEY_BYTES));
  sharedX.fill(0);
  const gatewayPubKey = ecdh.getPublicKey('base64');
  return {
    seal(dataKey) {
      try {
        const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
        const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
        const authTag = cipher.getAuthTag();
        return {
          gatewayPubKey,
          salt: salt.toString('base64'),
          iv: iv.toString('base64'),
          ciphertext: ciphertext.toString('base64'),
          authTag: authTag.toString('base64'),
        };
      } finally {
        aesKey.fill(0);
      }
    },
    dispose: () => void aesKey.fill(0),
  };
}

/**
 * Wraps a data key to a client's ephemeral P-256 public key. A fresh gateway keypair, salt and iv come
 * from `random` on every call, so two wraps of the same key never look alike.
 */
export function wrapKey(dataKey: Uint8Array, clientPublicKey: Uint8Array, random: RandomSource): WrappedKey {
  return prepareWrap(clientPublicKey, random).seal(dataKey);
}

/** A P-256 keypair from 32 random bytes; the rare scalar outside [1, n-1] is drawn again. */
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
