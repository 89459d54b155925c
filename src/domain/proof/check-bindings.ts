import { hash, timingSafeEqual } from 'node:crypto';
import { htuMatches } from './normalise-htu.js';
import type { ProofClaims } from './parse-proof.js';
import { ProofBindingMismatchError } from './proof.errors.js';
import type { ProofRequest } from './proof.js';

const NO_BODY = new Uint8Array(0);

/**
 * The binding checks, in this order (docs/spec.md §5.3 step 7):
 * - `htm` equals the request method exactly (RFC 9449 §4.3 step 8);
 * - `htu` names the request URI, compared as `normaliseHtu` says (RFC 9449 §4.3 step 9);
 * - `ath` is the base64url SHA-256 of the exact credential string presented (RFC 9449 §4.3 step 12,
 *   §7.1); every request of a bound session presents one, so `ath` is always required;
 * - `bth` is the base64url SHA-256 of the exact body bytes, of the empty string when there is no
 *   body (docs/spec.md §5.2, a local extension beyond the RFC).
 * The first that fails is PROOF_BINDING_MISMATCH naming the claim; a missing or non-string `ath`
 * or `bth` fails as a mismatch.
 */
export function checkBindings(claims: ProofClaims, request: ProofRequest): void {
  if (claims.htm !== request.method) throw new ProofBindingMismatchError('htm');
  if (!htuMatches(claims.htu, request.htu)) throw new ProofBindingMismatchError('htu');
  if (!isHashOf(claims.ath, request.credential)) throw new ProofBindingMismatchError('ath');
  if (!isHashOf(claims.bth, request.body ?? NO_BODY)) throw new ProofBindingMismatchError('bth');
}

/** base64url (no padding) of the SHA-256 of `data` (a string is hashed as its UTF-8 bytes), in one call. */
export function sha256Base64url(data: string | Uint8Array): string {
  return hash('sha256', data, 'base64url');
}

/**
 * Compared without an early exit on the first differing byte. Both sides are base64url SHA-256
 * digests of public length, so a length mismatch may answer at once: no hashing of the hashes.
 */
function isHashOf(claim: unknown, data: string | Uint8Array): boolean {
  if (typeof claim !== 'string') return false;
  const expected = Buffer.from(sha256Base64url(data), 'latin1');
  const claimed = Buffer.from(claim, 'utf8');
  return claimed.length === expected.length && timingSafeEqual(claimed, expected);
}
