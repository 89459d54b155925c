/**
 * The wrapped key envelope (docs/spec.md §3) and the wrap's fixed parameters (docs/spec.md §3.2):
 * ECDH P-256 -> HKDF-SHA256 (info `keygate export v1`, 32 bytes) -> AES-256-GCM, 12-byte iv,
 * 16-byte tag, no additional data. All fields are standard base64.
 */
export interface WrappedKey {
  readonly gatewayPubKey: string;
  readonly salt: string;
  readonly iv: string;
  readonly ciphertext: string;
  readonly authTag: string;
}

export const WRAP_CURVE = 'prime256v1';
export const WRAP_HKDF_INFO = 'keygate export v1';
export const WRAP_SALT_BYTES = 16;
export const WRAP_IV_BYTES = 12;
export const WRAP_TAG_BYTES = 16;
export const WRAP_AES_KEY_BYTES = 32;
/** Uncompressed P-256 point: 0x04 || X || Y. */
export const CLIENT_PUBLIC_KEY_BYTES = 65;
