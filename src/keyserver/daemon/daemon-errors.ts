import type { WireErrorCode } from '../../wire/error-codes.js';
import { BadRequestError, KeyServerError } from '../model/key-server-errors.js';

/**
 * The daemon's one table from error code to HTTP status (docs/keyserver-protocol.md "Errors"). The
 * body is always `{ code, detail }`; the code carries the meaning, the status is for HTTP tooling.
 */
export const DAEMON_STATUS = {
  BAD_REQUEST: 400,
  DECRYPT_FAILED: 400,
  CERTIFICATE_MALFORMED: 400,
  SESSION_REQUIRED: 401,
  SESSION_EXPIRED: 401,
  WRONG_CREDENTIAL: 401,
  ROLE_DENIED: 403,
  DELEGATION_DENIED: 403,
  ACL_DENIED: 403,
  CONTEXT_REQUIRED: 403,
  OUT_OF_SCOPE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  KEY_EXPIRED: 410,
  KEY_DISABLED: 409,
  KEY_PENDING_DELETION: 409,
  KEY_DELETED: 409,
  KEY_TYPE_MISMATCH: 409,
  KEY_VERSION_RETIRED: 409,
  KEY_VERSIONS_EXHAUSTED: 409,
  KEY_VERSION_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REUSED: 422,
  KEY_SERVER_FAILED: 500,
  INTERNAL: 500,
} as const satisfies Record<WireErrorCode, number>;

/** A request body over the protocol's limit: BAD_REQUEST, answered 413. */
export class BodyTooLargeError extends BadRequestError {
  override name = 'BodyTooLargeError';

  constructor(limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

/** A known path asked with another method: 405 with `Allow`. */
export class MethodNotAllowedError extends KeyServerError {
  override name = 'MethodNotAllowedError';

  readonly allowed: string;

  constructor(allowed: string) {
    super('METHOD_NOT_ALLOWED', `use ${allowed}`);
    this.allowed = allowed;
  }
}
