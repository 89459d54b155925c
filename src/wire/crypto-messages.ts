/** The AES-GCM algorithm of a data key's length (RFC 7518 §5.3 names). */
export type GcmAlg = 'A128GCM' | 'A192GCM' | 'A256GCM';
/** The MAC algorithm of every data key: HMAC-SHA256 (RFC 7518 §3.2). */
export const MAC_ALG = 'HS256';

/**
 * Operation 9. Every binary value is bytes: base64 is how JSON carries them (the HTTP surfaces, the
 * daemon's protocol), encoded and decoded at those edges only.
 */
export interface EncryptRequest {
  readonly plaintext: Uint8Array;
  readonly aad?: Uint8Array | undefined;
}

export interface EncryptResult {
  readonly ciphertext: Uint8Array;
  readonly iv: Uint8Array;
  readonly authTag: Uint8Array;
  readonly alg: GcmAlg;
}

/** Operation 10. */
export interface DecryptRequest {
  readonly ciphertext: Uint8Array;
  readonly iv: Uint8Array;
  readonly authTag: Uint8Array;
  readonly aad?: Uint8Array | undefined;
}

/** Operation 10's answer: the plaintext, a fresh array its receiver zeroes once it has used it. */
export interface DecryptResult {
  readonly plaintext: Uint8Array;
}

/** Operation 11. */
export interface MacResult {
  readonly mac: Uint8Array;
  readonly alg: typeof MAC_ALG;
}
