import { createDecipheriv, createECDH, hkdfSync } from 'node:crypto';
import { WRAP_AES_KEY_BYTES, WRAP_CURVE, WRAP_HKDF_INFO, type WrappedKey } from './keywrap.js';

/**
 * The client side of the export wrap, for Node clients: derives the same AES key from the gateway's
 * ephemeral public key and the client's private scalar, then opens the envelope. Throws when the
 * envelope was tampered with (GCM tag mismatch).
 */
export function unwrapKey(wrapped: WrappedKey, clientPrivateKey: Uint8Array): Buffer {
  const ecdh = createECDH(WRAP_CURVE);
  ecdh.setPrivateKey(Buffer.from(clientPrivateKey));
  const sharedX = ecdh.computeSecret(Buffer.from(wrapped.gatewayPubKey, 'base64'));
  const aesKey = Buffer.from(hkdfSync('sha256', sharedX, Buffer.from(wrapped.salt, 'base64'), WRAP_HKDF_INFO, WRAP_AES_KEY_BYTES));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(wrapped.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(wrapped.authTag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(wrapped.ciphertext, 'base64')), decipher.final()]);
}
