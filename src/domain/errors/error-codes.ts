import { WIRE_ERROR_CODES } from '../../wire/error-codes.js';

/**
 * Every error code the contracts name (docs/spec.md §6.3). The code is the contract; the wording of a detail is not.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'SESSION_REQUIRED',
  'SESSION_UNKNOWN',
  'SESSION_EXPIRED',
  'WRONG_CREDENTIAL',
  'LOGIN_FAILED',
  'PROOF_MISSING',
  'PROOF_MALFORMED',
  'PROOF_ALG_NOT_ALLOWED',
  'PROOF_KEY_MISMATCH',
  'PROOF_SIGNATURE_REJECTED',
  'PROOF_BINDING_MISMATCH',
  'PROOF_CLOCK_SKEW',
  'PROOF_REPLAYED',
  'PROOF_REPLAY_CACHE_FULL',
  'ROLE_DENIED',
  'DELEGATION_DENIED',
  'ACL_DENIED',
  'CONTEXT_REQUIRED',
  'OUT_OF_SCOPE',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_SAVED',
  'NOT_VERIFIED',
  'CONFLICT',
  'KEY_EXPIRED',
  'KEY_DISABLED',
  'KEY_PENDING_DELETION',
  'KEY_DELETED',
  'KEY_TYPE_MISMATCH',
  'KEY_VERSION_RETIRED',
  'KEY_VERSIONS_EXHAUSTED',
  'KEY_VERSION_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'DECRYPT_FAILED',
  'CERTIFICATE_MALFORMED',
  'KEY_SERVER_UNAVAILABLE',
  'KEY_SERVER_FAILED',
  'SESSION_STORE_UNAVAILABLE',
  'AUDIT_UNAVAILABLE',
  'RATE_LIMITED',
  'SESSION_LIMIT',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Every code a key server answers (src/wire/error-codes.ts) is a gateway code too. */
WIRE_ERROR_CODES satisfies readonly ErrorCode[];
