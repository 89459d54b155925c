import { createDecipheriv, createECDH, type ECDH, hkdfSync } from 'node:crypto';

/**
 * The client's side of docs/spec.md §3.2 written from the spec with Node's crypto alone (ECDH P-256,
 * HKDF-SHA256, AES-256-GCM), nothing of src/: what the tests use to check a wrap independently.
 */
export interface SpecWrapped {
  readonly gatewayPubKey: string;
  readonly salt: string;
  readonly iv: string;
  readonly ciphertext: string;
  readonly authTag: string;
}

export const b64 = (text: string) => Buffer.from(text, 'base64');

/** A client's ephemeral P-256 key, as the spec asks: a fresh pair, its raw uncompressed point in base64. */
export function specClientKey(): { ecdh: ECDH; publicKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, publicKey: ecdh.getPublicKey('base64') };
}

/** Opens a wrap (docs/spec.md §3.2) with the HKDF `info` of what was wrapped (`keygate export v1`, `keygate datakey v1`). */
export function specUnwrap(wrapped: SpecWrapped, ecdh: ECDH, info: string): Buffer {
  const shared = ecdh.computeSecret(b64(wrapped.gatewayPubKey));
  const aesKey = Buffer.from(hkdfSync('sha256', shared, b64(wrapped.salt), info, 32));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, b64(wrapped.iv));
  decipher.setAuthTag(b64(wrapped.authTag));
  return Buffer.concat([decipher.update(b64(wrapped.ciphertext)), decipher.final()]);
}
