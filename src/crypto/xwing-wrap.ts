import type { SenderContext } from '@hpke/core';
import type { ClientKeyError } from './p256-wrap.js';
import type { RandomSource } from './random-source.js';
import { ownBytes, XWING_ENCAP_SEED_BYTES, XWING_WRAP_ALGO, type XWingWrapInfo, type XWingWrappedKey, xwingSuite } from './xwing-suite.js';

/** An X-Wing wrap with the encapsulation done: `seal` finishes it with the key, `dispose` drops it unused. */
export interface PreparedXWingWrap {
  seal(key: Uint8Array): Promise<XWingWrappedKey>;
  dispose(): void;
}

/**
 * The part of the post-quantum wrap (docs/spec.md §3.4 item 1) that needs no key material:
 * `SetupBaseS(pkR = clientPublicKey, info)`, the encapsulation drawing its 64 bytes from `random`
 * (RFC 9180 §5.1.1 `ekm`: the randomness reaches the wrap as an argument, as for P-256). A key the
 * KEM refuses (an ML-KEM encapsulation key whose coefficients are not reduced, FIPS 203 §7.2, or an
 * X25519 key giving the zero secret) is `BadRequest`. `clientPublicKey` must be 1,216 bytes long.
 */
export async function prepareXWingWrap(
  clientPublicKey: Uint8Array,
  random: RandomSource,
  info: XWingWrapInfo,
  BadRequest: ClientKeyError,
): Promise<PreparedXWingWrap> {
  const suite = await xwingSuite();
  const ekm = ownBytes(random.bytes(XWING_ENCAP_SEED_BYTES));
  let sender: SenderContext;
  try {
    const recipientPublicKey = await suite.kem.importKey('raw', ownBytes(clientPublicKey).buffer, true);
    sender = await suite.createSenderContext({ recipientPublicKey, info: new TextEncoder().encode(info).buffer, ekm: ekm.buffer });
  } catch (cause) {
    // Loaded with the suite above: a process that never wraps to X-Wing loads none of @hpke.
    const { DeserializeError, EncapError, InvalidParamError } = await import('@hpke/core');
    if (cause instanceof DeserializeError || cause instanceof EncapError || cause instanceof InvalidParamError) {
      throw new BadRequest('clientPubKey: not an X-Wing public key', cause);
    }
    throw cause;
  } finally {
    ekm.fill(0);
  }
  const enc = Buffer.from(sender.enc).toString('base64');
  return {
    async seal(key) {
      // The suite takes an ArrayBuffer as it is; a copy of our own is zeroed once sealed.
      const plaintext = ownBytes(key);
      try {
        const sealed = await sender.seal(plaintext.buffer);
        return { algo: XWING_WRAP_ALGO, enc, ciphertext: Buffer.from(sealed).toString('base64') };
      } finally {
        plaintext.fill(0);
      }
    },
    dispose: () => undefined,
  };
}
