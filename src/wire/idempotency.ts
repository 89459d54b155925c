/**
 * A request's claim to an `Idempotency-Key` (IETF httpapi draft "The Idempotency-Key HTTP Header
 * Field"): the key the client chose, and the fingerprint of the request it sent under it (base64url
 * SHA-256 of `METHOD path\n` and the request's canonical JSON body, computed by the gateway). The key
 * server keeps, per caller and key, the fingerprint and the first answer: a retry with the same
 * fingerprint within the window answers that answer and changes nothing; another fingerprint is
 * IDEMPOTENCY_KEY_REUSED.
 */
export interface IdempotencyClaim {
  readonly key: string;
  readonly fingerprint: string;
}

/** How long a record answers retries: 24 hours, by the key server's clock. */
export const IDEMPOTENCY_WINDOW_MS = 86_400_000;

/** An idempotency key: 1 to 255 visible ASCII characters (0x21 to 0x7E). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** A fingerprint: base64url (no padding) of a SHA-256 digest, 43 characters. */
export const IDEMPOTENCY_FINGERPRINT = /^[A-Za-z0-9_-]{43}$/;

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY.test(value);
}
