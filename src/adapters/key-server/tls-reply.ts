import { AclDeniedError, RoleDeniedError } from '../../domain/acl/acl.errors.js';
import { ERROR_CODES, type ErrorCode } from '../../domain/errors/error-codes.js';
import { KeygateError, KeyServerFailedError } from '../../domain/errors/index.js';
import { SessionExpiredError, WrongCredentialError } from '../../domain/session/session.errors.js';
import { errorReply } from '../../keyserver/protocol/keyserver-protocol.js';

/** Daemon codes that keep their meaning at the gateway (the KeyServer port's error vocabulary). */
const PASSED_THROUGH: ReadonlySet<ErrorCode> = new Set([
  'NOT_FOUND',
  'BAD_REQUEST',
  'KEY_EXPIRED',
  'CONFLICT',
  'OUT_OF_SCOPE',
  'DECRYPT_FAILED',
  'CERTIFICATE_MALFORMED',
  'KEY_SERVER_FAILED',
]);

/**
 * A daemon answer (docs/keyserver-protocol.md "Errors"): a 2xx gives its JSON; an error body throws
 * the domain error of its code; anything else throws KEY_SERVER_FAILED.
 */
export function interpretReply(status: number, text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (status >= 200 && status < 300) {
    if (json === undefined) throw new KeyServerFailedError(`key server reply (HTTP ${status}) is not JSON`);
    return json;
  }
  const error = errorReply.safeParse(json);
  throw error.success ? daemonError(error.data.code, error.data.detail, error.data.reason) : new KeyServerFailedError(`key server answered HTTP ${status}`);
}

/** A daemon error answer as the domain error the embedded engine would have thrown. */
export function daemonError(code: string, detail: string, reason?: string): KeygateError {
  switch (code) {
    case 'SESSION_EXPIRED':
      return new SessionExpiredError(detail);
    case 'WRONG_CREDENTIAL':
      return new WrongCredentialError(detail);
    case 'ACL_DENIED':
      return new AclDeniedError(detail);
    case 'ROLE_DENIED':
      return new RoleDeniedError(detail);
  }
  if (isErrorCode(code) && PASSED_THROUGH.has(code)) return new KeygateError(code, detail, reason === undefined ? {} : { reason });
  return new KeyServerFailedError(`key server answered ${code.slice(0, 64)}: ${detail}`);
}

function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}
