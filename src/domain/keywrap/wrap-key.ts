import { createCipheriv, createECDH, hkdfSync } from 'node:crypto';
import type { RandomSource } from '../random-source.js';
import { WRAP_AES_KEY_BYTES, WRAP_CURVE, WRAP_HKDF_INFO, WRAP_IV_BYTES, WRAP_SALT_BYTES, type WrappedKey } from './keywrap.js';

/**
 * Wraps a data key to a client's ephemeral P-256 public key (api-surface.md "The export wrap"). A
 * fresh gateway keypair, salt and iv come from `random` on every call, so two wraps of the same key
 * never look alike. `clientPublicKey` must already be validated by `parseClientPublicKey`.
 */
export function wrapKey(dataKey: Uint8Array, clientPublicKey: Uint8Array, random: RandomSource): WrappedKey {
  const ecdh = ephemeralKeyPair(random);
  const sharedX = ecdh.computeSecret(clientPublicKey);
  const salt = Buffer.from(random.bytes(WRAP_SALT_BYTES));
  const iv = Buffer.from(random.bytes(WRAP_IV_BYTES));
  const aesKey = Buffer.from(hkdfSync('sha256', sharedX, salt, WRAP_HKDF_INFO, WRAP_AES_KEY_BYTES));
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  const authTag = cipher.getAuthTag();
  aesKey.fill(0);
  sharedX.fill(0);
  return {
    gatewayPubKey: ecdh.getPublicKey().toString('base64'),
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    ciphertext: ciphertext.toString('base64'),
    authTag: authTag.toString('base64'),
  };
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
