import { AclDeniedError, RoleDeniedError } from '../../domain/acl/acl.errors.js';
import { KeygateError, KeyServerFailedError } from '../../domain/errors/index.js';
import { SessionExpiredError, WrongCredentialError } from '../../domain/session/session.errors.js';
import { isWireErrorCode, type WireErrorCode } from '../../wire/error-codes.js';

/** Key-server codes that keep their meaning at the gateway (the KeyServer port's error vocabulary). */
const PASSED_THROUGH: ReadonlySet<WireErrorCode> = new Set([
  'NOT_FOUND',
  'BAD_REQUEST',
  'KEY_EXPIRED',
  'KEY_DISABLED',
  'KEY_PENDING_DELETION',
  'KEY_DELETED',
  'KEY_TYPE_MISMATCH',
  'KEY_VERSION_RETIRED',
  'KEY_VERSIONS_EXHAUSTED',
  'KEY_VERSION_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'CONFLICT',
  'DELEGATION_DENIED',
  'CONTEXT_REQUIRED',
  'OUT_OF_SCOPE',
  'DECRYPT_FAILED',
  'CERTIFICATE_MALFORMED',
  'KEY_SERVER_FAILED',
]);

/**
 * A key-server error (a code from src/wire/error-codes.ts, a detail, a reason) as the gateway's own
 * error: the same rebuild for the embedded engine and the daemon's answers (docs/keyserver-protocol.md
 * "Errors"). A code outside the port's vocabulary is KEY_SERVER_FAILED.
 */
export function rebuildKeyServerError(code: string, detail: string, reason?: string, cause?: unknown): KeygateError {
  switch (code) {
    case 'SESSION_EXPIRED':
      return new SessionExpiredError(detail, cause);
    case 'WRONG_CREDENTIAL':
      return new WrongCredentialError(detail);
    case 'ACL_DENIED':
      return new AclDeniedError(detail);
    case 'ROLE_DENIED':
      return new RoleDeniedError(detail);
  }
  if (isWireErrorCode(code) && PASSED_THROUGH.has(code)) {
    return new KeygateError(code, detail, { ...(reason === undefined ? {} : { reason }), ...(cause === undefined ? {} : { cause }) });
  }
  return new KeyServerFailedError(`key server answered ${code.slice(0, 64)}: ${detail}`, cause);
}
