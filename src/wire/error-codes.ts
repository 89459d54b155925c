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
  'OUT_OF_SCOPE',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'KEY_EXPIRED',
  'DECRYPT_FAILED',
  'CERTIFICATE_MALFORMED',
  'KEY_SERVER_FAILED',
  'INTERNAL',
] as const;

export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

export function isWireErrorCode(value: string): value is WireErrorCode {
  return (WIRE_ERROR_CODES as readonly string[]).includes(value);
}
