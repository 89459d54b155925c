import type { WireErrorCode } from '../../wire/error-codes.js';

export interface KeyServerErrorOptions {
  readonly cause?: unknown;
  readonly reason?: string;
}

/**
 * The one base class of every failure the key server answers on purpose: a code that travels
 * (src/wire/error-codes.ts) and a human `detail`. `cause` is for logs only, never for an answer.
 */
export class KeyServerError extends Error {
  readonly code: WireErrorCode;
  readonly reason: string | undefined;

  constructor(code: WireErrorCode, detail: string, options: KeyServerErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeyServerError';
    this.code = code;
    this.reason = options.reason;
  }

  get detail(): string {
    return this.message;
  }
}

export function isKeyServerError(value: unknown): value is KeyServerError {
  return value instanceof KeyServerError;
}

/** A request the key server cannot read or accept. */
export class BadRequestError extends KeyServerError {
  override name = 'BadRequestError';

  constructor(detail: string, cause?: unknown) {
    super('BAD_REQUEST', detail, { cause });
  }
}

/** No such object (key, principal, role, certificate, ...). */
export class NotFoundError extends KeyServerError {
  override name = 'NotFoundError';

  constructor(detail: string) {
    super('NOT_FOUND', detail);
  }
}

/** The caller's rights on the key do not include the one asked for (docs/spec.md §4.3 item 4). */
export class AclDeniedError extends KeyServerError {
  override name = 'AclDeniedError';

  constructor(detail: string) {
    super('ACL_DENIED', detail);
  }
}

/** The caller's roles do not hold the operation. */
export class RoleDeniedError extends KeyServerError {
  override name = 'RoleDeniedError';

  constructor(detail: string) {
    super('ROLE_DENIED', detail);
  }
}

/** A service asks to act for a principal its delegation list does not name, or an administrator. */
export class DelegationDeniedError extends KeyServerError {
  override name = 'DelegationDeniedError';

  constructor(detail: string) {
    super('DELEGATION_DENIED', detail);
  }
}

/**
 * The key's ACL gives the right only through entries whose context condition the request does not meet
 * (docs/spec.md §4.5b item 4). The detail names the missing names, never a value.
 */
export class ContextRequiredError extends KeyServerError {
  override name = 'ContextRequiredError';

  constructor(detail: string) {
    super('CONTEXT_REQUIRED', detail);
  }
}

/** A scoped or delegated token reaches outside its scope. */
export class OutOfScopeError extends KeyServerError {
  override name = 'OutOfScopeError';

  constructor(detail = 'the session is scoped to other keys or rights') {
    super('OUT_OF_SCOPE', detail);
  }
}

/** The key is expired. */
export class KeyExpiredError extends KeyServerError {
  override name = 'KeyExpiredError';

  constructor(detail = 'the key is expired') {
    super('KEY_EXPIRED', detail);
  }
}

/** The key is disabled (docs/spec.md §4.6): it refuses export and cryptography until its owner enables it. */
export class KeyDisabledError extends KeyServerError {
  override name = 'KeyDisabledError';

  constructor(detail = 'the key is disabled') {
    super('KEY_DISABLED', detail);
  }
}

/** The key is scheduled for deletion (docs/spec.md §4.23 item 5): it refuses export, cryptography, rotation and state changes until cancelled. */
export class KeyPendingDeletionError extends KeyServerError {
  override name = 'KeyPendingDeletionError';

  constructor(detail = 'the key is scheduled for deletion') {
    super('KEY_PENDING_DELETION', detail);
  }
}

/** The key was destroyed by its scheduled deletion (docs/spec.md §4.23 item 5): only its tombstone remains. */
export class KeyDeletedError extends KeyServerError {
  override name = 'KeyDeletedError';

  constructor(detail = 'the key was deleted') {
    super('KEY_DELETED', detail);
  }
}

/**
 * The operation does not fit the key's type (docs/spec.md §4.25 item 1): encryption, MAC or a data key
 * with a signing key, signing or a public key with an `aes` key, or the export of a signing key made
 * without `exportable`.
 */
export class KeyTypeMismatchError extends KeyServerError {
  override name = 'KeyTypeMismatchError';

  constructor(detail = 'the operation does not fit the key type') {
    super('KEY_TYPE_MISMATCH', detail);
  }
}

/** The key holds `limit` versions, the most a key may have (docs/spec.md §4.22 item 2): rotation adds no more. */
export class KeyVersionsExhaustedError extends KeyServerError {
  override name = 'KeyVersionsExhaustedError';

  constructor(limit: number) {
    super('KEY_VERSIONS_EXHAUSTED', `the key holds ${limit} versions, the most a key may have: create a new key to rotate further`);
  }
}

/** The key version is below the key's minVersion: it refuses export, decrypt and MAC verify. */
export class KeyVersionRetiredError extends KeyServerError {
  override name = 'KeyVersionRetiredError';

  constructor(version: number, minVersion: number) {
    super('KEY_VERSION_RETIRED', `key version ${version} is retired (the minimum version is ${minVersion})`);
  }
}

/** The key has no such version. */
export class KeyVersionNotFoundError extends KeyServerError {
  override name = 'KeyVersionNotFoundError';

  constructor(version: number, newest: number) {
    super('KEY_VERSION_NOT_FOUND', `the key has no version ${version} (versions 1 to ${newest})`);
  }
}

/** The ciphertext does not decrypt under the key (authentication tag mismatch). */
export class DecryptFailedError extends KeyServerError {
  override name = 'DecryptFailedError';

  constructor(detail = 'the ciphertext does not decrypt under this key (authentication tag mismatch)') {
    super('DECRYPT_FAILED', detail);
  }
}

/** A certificate that does not parse. */
export class CertificateMalformedError extends KeyServerError {
  override name = 'CertificateMalformedError';

  constructor(detail: string, cause?: unknown) {
    super('CERTIFICATE_MALFORMED', detail, { cause });
  }
}

/** The token is unknown, revoked or expired. */
export class SessionExpiredError extends KeyServerError {
  override name = 'SessionExpiredError';

  constructor(detail = 'the key-server token expired or is invalid', cause?: unknown) {
    super('SESSION_EXPIRED', detail, { cause });
  }
}

/**
 * The detail of a refused password, the same for a wrong password and an unknown name (a refused
 * credential tells nothing more, docs/spec.md §4.4), in words, not the code again.
 */
export const WRONG_PASSWORD_DETAIL = 'credential refused: wrong user name or password';

/** A login that does not prove the credential (SRP-6a or a certificate challenge). */
export class WrongCredentialError extends KeyServerError {
  override name = 'WrongCredentialError';

  constructor(detail = 'wrong credential') {
    super('WRONG_CREDENTIAL', detail);
  }
}

/** An Idempotency-Key the caller already used, within its window, for another request. */
export class IdempotencyKeyReusedError extends KeyServerError {
  override name = 'IdempotencyKeyReusedError';

  constructor() {
    super('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used for another request within the last 24 hours');
  }
}

/** A `kid` that names no version of the key (docs/spec.md §4.25 item 4). */
export class KidNotFoundError extends KeyServerError {
  override name = 'KidNotFoundError';

  constructor() {
    super('KEY_VERSION_NOT_FOUND', 'kid: no version of the key has this kid');
  }
}
