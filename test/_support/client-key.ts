import { createECDH } from 'node:crypto';
import type { WrappedKey } from '../../src/domain/keywrap/keywrap.js';
import { unwrapKey } from '../../src/domain/keywrap/unwrap-key.js';

/** A client's ephemeral P-256 keypair for one export, as a Node client would make it. */
export function clientKeyPair(): { publicKey: string; privateKey: Buffer; unwrap(wrapped: WrappedKey): Buffer } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64'),
    privateKey: ecdh.getPrivateKey(),
    unwrap: (wrapped) => unwrapKey(wrapped, ecdh.getPrivateKey()),
  };
}
