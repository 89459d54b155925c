import { KeygateError } from '../errors/keygate-error.js';

/** The AES-GCM tag did not verify: wrong key, iv, aad, or tampered data (api-surface.md operation 10). */
export class DecryptFailedError extends KeygateError {
  constructor(detail = 'the ciphertext does not decrypt under this key (authentication tag mismatch)') {
    super('DECRYPT_FAILED', detail);
  }
}
