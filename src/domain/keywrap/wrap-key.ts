import { type PreparedClientWrap, prepareClientWrap } from '../../crypto/client-wrap.js';
import { EXPORT_WRAP_INFO, type PreparedWrap, prepareWrap as prepareP256Wrap, type WrappedKey } from '../../crypto/p256-wrap.js';
import type { RandomSource } from '../../crypto/random-source.js';
import { BadRequestError } from '../errors/common.errors.js';

export type { PreparedClientWrap, PreparedWrap };

/**
 * The part of the export wrap (docs/spec.md §3.2) that needs no key material: a fresh
 * gateway keypair, the ECDH secret with the client's raw point, salt, iv, and the HKDF-SHA256 AES key
 * (src/crypto/p256-wrap.ts, info `keygate export v1`). It can run while the key server is asked. The
 * ECDH step decodes the point through OpenSSL, which refuses one off the curve: a bad request.
 * `clientPublicKey` must be a 65-byte uncompressed point (`decodeClientPublicKey`).
 */
export function prepareWrap(clientPublicKey: Uint8Array, random: RandomSource): PreparedWrap {
  return prepareP256Wrap(clientPublicKey, random, EXPORT_WRAP_INFO, BadRequestError);
}

/**
 * The /api export's wrap (docs/spec.md §3.4), to a key of either kind (`decodeAnyClientPublicKey`):
 * as `prepareWrap` to a P-256 point, the X-Wing encapsulation (HPKE info `keygate export v2`) to an
 * X-Wing public key. Either refusal of the key is a bad request.
 */
export function prepareExportWrap(clientPublicKey: Uint8Array, random: RandomSource): Promise<PreparedClientWrap> {
  return prepareClientWrap(clientPublicKey, random, 'export', BadRequestError);
}

/**
 * Wraps a data key to a client's ephemeral P-256 public key. A fresh gateway keypair, salt and iv come
 * from `random` on every call, so two wraps of the same key never look alike.
 */
export function wrapKey(dataKey: Uint8Array, clientPublicKey: Uint8Array, random: RandomSource): WrappedKey {
  return prepareWrap(clientPublicKey, random).seal(dataKey);
}
