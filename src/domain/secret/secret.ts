import { createHash, timingSafeEqual } from 'node:crypto';

const REDACTED = '[redacted]';

/**
 * A secret string (password, key-server token, session id). It keeps its value in a private field,
 * redacts itself when serialised, printed or inspected, and compares in constant time.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value itself. Call it only where the secret must leave the process boundary on purpose. */
  reveal(): string {
    return this.#value;
  }

  /** Constant-time comparison (over SHA-256 digests, so lengths leak nothing either). */
  equals(other: Secret | string): boolean {
    const theirs = typeof other === 'string' ? other : other.reveal();
    return constantTimeEqual(this.#value, theirs);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Secret(${REDACTED})`;
  }
}

/** Compares two strings without an early exit on the first differing byte. */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
