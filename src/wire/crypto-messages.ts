/** The AES-GCM algorithm of a data key's length (RFC 7518 §5.3 names). */
export type GcmAlg = 'A128GCM' | 'A192GCM' | 'A256GCM';
/** The MAC algorithm of every data key: HMAC-SHA256 (RFC 7518 §3.2). */
export const MAC_ALG = 'HS256';

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
