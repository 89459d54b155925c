import { KeygateError } from './keygate-error.js';

/** A request the gateway cannot read: bad JSON, a schema failure, a body over the limit. */
export class BadRequestError extends KeygateError {
  override name = 'BadRequestError';

  constructor(detail: string, cause?: unknown) {
    super('BAD_REQUEST', detail, { cause });
  }
}

/** No such object (key, principal, ...). Routes answer unknown paths on their own. */
export class NotFoundError extends KeygateError {
  override name = 'NotFoundError';

  constructor(detail: string) {
    super('NOT_FOUND', detail);
  }
}

/** The key server cannot be reached, or it is not the server the gateway is bound to. */
export class KeyServerUnavailableError extends KeygateError {
  override name = 'KeyServerUnavailableError';

  constructor(detail: string, cause?: unknown) {
    super('KEY_SERVER_UNAVAILABLE', detail, { cause, retryable: true, scope: 'process', retryAfterSeconds: 5 });
  }
}

/** The key server answered, but refused or failed the operation for a reason that is not authorization. */
export class KeyServerFailedError extends KeygateError {
  override name = 'KeyServerFailedError';

  constructor(detail: string, cause?: unknown) {
    super('KEY_SERVER_FAILED', detail, { cause });
  }
}

/** The session store cannot be reached. */
export class SessionStoreUnavailableError extends KeygateError {
  override name = 'SessionStoreUnavailableError';

  constructor(detail: string, cause?: unknown) {
    super('SESSION_STORE_UNAVAILABLE', detail, { cause, retryable: true, scope: 'process', retryAfterSeconds: 2 });
  }
}
