import { hash } from 'node:crypto';
import type { RandomSource } from '../../crypto/random-source.js';

/** 256 bits: an opaque session id is 32 random bytes, base64url (43 characters). */
export const SESSION_ID_BYTES = 32;

const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Mints an opaque random session id. */
export function newSessionId(random: RandomSource): string {
  return Buffer.from(random.bytes(SESSION_ID_BYTES)).toString('base64url');
}

/** True when the value could be a session id we minted; anything else is unknown without a lookup. */
export function isWellFormedSessionId(value: string): boolean {
  return SESSION_ID_SHAPE.test(value);
}

/**
 * The store key of a session: base64url of SHA-256 of the id. A dump of any store shows no usable id.
 */
export function sessionKey(sessionId: string): string {
  // One call (no Hash object): this runs on every authenticated request.
  return hash('sha256', sessionId, 'base64url');
}

/** The short non-secret reference of a session, shown in lists, logs and audit records. */
export function sessionRef(sessionId: string): string {
  return sessionKey(sessionId).slice(0, 12);
}
