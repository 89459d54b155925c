import type { GcmAlg, MAC_ALG } from '../keyserver/model/data-crypto.js';

/** Operation 9. Every binary value is standard base64. */
export interface EncryptRequest {
  readonly plaintext: string;
  readonly aad?: string | undefined;
}

export interface EncryptResult {
  readonly ciphertext: string;
  readonly iv: string;
  readonly authTag: string;
  readonly alg: GcmAlg;
}

/** Operation 10. */
export interface DecryptRequest {
  readonly ciphertext: string;
  readonly iv: string;
  readonly authTag: string;
  readonly aad?: string | undefined;
}

/** Operation 11. */
export interface MacResult {
  readonly mac: string;
  readonly alg: typeof MAC_ALG;
}
