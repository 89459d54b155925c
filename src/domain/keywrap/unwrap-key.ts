import { EXPORT_WRAP_INFO, unwrapWith, type WrappedKey } from '../../crypto/p256-wrap.js';

/**
 * The client side of the export wrap (docs/spec.md §3.2), for Node clients: derives the same AES key
 * from the gateway's ephemeral public key and the client's private scalar, then opens the envelope.
 * Throws when the envelope was tampered with (GCM tag mismatch).
 */
export function unwrapKey(wrapped: WrappedKey, clientPrivateKey: Uint8Array): Buffer {
  return unwrapWith(wrapped, clientPrivateKey, EXPORT_WRAP_INFO);
}
