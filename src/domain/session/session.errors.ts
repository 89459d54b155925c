import { KeygateError } from '../errors/keygate-error.js';

/** No credential on a request that needs one. */
export class SessionRequiredError extends KeygateError {
  override name = 'SessionRequiredError';

  constructor() {
    super('SESSION_REQUIRED', 'a session is required');
  }
}

/** A credential that names no live session (never minted, logged out, or past its lifetime). */
export class SessionUnknownError extends KeygateError {
  override name = 'SessionUnknownError';

  constructor() {
    super('SESSION_UNKNOWN', 'unknown or expired session');
  }
}

/** The server-held key-server token expired or is no longer valid: the client must sign in again. */
export class SessionExpiredError extends KeygateError {
  override name = 'SessionExpiredError';

  constructor(detail = 'the key-server token expired or is invalid', cause?: unknown) {
    super('SESSION_EXPIRED', detail, { cause, reauth: true });
  }
}

/** The key server refused the credential (docs/spec.md §2.3 item 1: WRONG_CREDENTIAL, credential, empty data). */
export class WrongCredentialError extends KeygateError {
  override name = 'WrongCredentialError';

  constructor(detail = 'wrong credential') {
    super('WRONG_CREDENTIAL', detail);
  }
}

/** The login failed for a reason other than the credential. */
export class LoginFailedError extends KeygateError {
  override name = 'LoginFailedError';

  constructor(detail: string, cause?: unknown) {
    super('LOGIN_FAILED', detail, { cause });
  }
}
