import { KeygateError } from '../errors/keygate-error.js';

/** The key was expired (operation 16, or its expiry passed): no export, no cryptography. */
export class KeyExpiredError extends KeygateError {
  constructor(detail = 'the key is expired') {
    super('KEY_EXPIRED', detail);
  }
}
