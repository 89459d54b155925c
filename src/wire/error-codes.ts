/**
 * The error codes a key server answers (docs/keyserver-protocol.md "Errors"): the codes that travel
 * from the key server to the gateway. Each is also a gateway code (docs/spec.md §6.3), and the
 * gateway rebuilds its own error of the same meaning from it.
 */
export const WIRE_ERROR_CODES = [
  'BAD_REQUEST',
  'SESSION_REQUIRED',
  'SESSION_EXPIRED',
  'WRONG_CREDENTIAL',
  'ROLE_DENIED',
  'DELEGATION_DENIED',
  'ACL_DENIED',
  'CONTEXT_REQUIRED',
  'OUT_OF_SCOPE',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'KEY_EXPIRED',
  /** The key is disabled: it refuses export and cryptography until enabled (docs/spec.md §4.6). */
  'KEY_DISABLED',
  /** The key is scheduled for deletion: no export, cryptography, rotation or state change until cancelled (docs/spec.md §4.23 item 5). */
  'KEY_PENDING_DELETION',
  /** The key was destroyed; only its tombstone remains (docs/spec.md §4.23 item 5). */
  'KEY_DELETED',
  /** The operation does not fit the key's type: a symmetric operation on a signing key, or the reverse (docs/spec.md §4.25 item 1). */
  'KEY_TYPE_MISMATCH',
  /** The key version is below the key's minVersion. */
  'KEY_VERSION_RETIRED',
  /** The key holds the most versions a key may have: no rotation adds another. */
  'KEY_VERSIONS_EXHAUSTED',
  /** The key has no such version (0, negative, or above the newest). */
  'KEY_VERSION_NOT_FOUND',
  /** An Idempotency-Key already used for another request. */
  'IDEMPOTENCY_KEY_REUSED',
  'DECRYPT_FAILED',
  'CERTIFICATE_MALFORMED',
  'KEY_SERVER_FAILED',
  'INTERNAL',
] as const;

export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

export function isWireErrorCode(value: string): value is WireErrorCode {
  return (WIRE_ERROR_CODES as readonly string[]).includes(value);
}
