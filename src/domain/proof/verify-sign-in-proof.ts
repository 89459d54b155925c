import { timingSafeEqual } from 'node:crypto';
import { sha256Base64url } from './check-bindings.js';
import { htuMatches } from './normalise-htu.js';
import { parseProof } from './parse-proof.js';
import { ProofBindingMismatchError, ProofClockSkewError } from './proof.errors.js';
import { PROOF_IAT_TOLERANCE_SECONDS, type VerifiedProof } from './proof.js';
import { checkSignature, resolveKey } from './verify-proof.js';

const TOLERANCE_MS = PROOF_IAT_TOLERANCE_SECONDS * 1000;

/** What a sign-in's proof is bound to: no session credential exists yet, so no `ath`. */
export interface SignInProofRequest {
  readonly method: string;
  readonly htu: string;
  readonly body: Uint8Array;
}

function sameHash(claim: unknown, data: Uint8Array): boolean {
  if (typeof claim !== 'string') return false;
  const expected = Buffer.from(sha256Base64url(data), 'latin1');
  const claimed = Buffer.from(claim, 'utf8');
  return claimed.length === expected.length && timingSafeEqual(claimed, expected);
}

/**
 * A proof of possession sent with a sign-in (docs/spec.md §4.24 item 2): the checks of §5.3 in their
 * order, except that the key is the proof's own (the session will be bound to its thumbprint) and,
 * no credential existing yet, the proof carries no `ath` (one present is PROOF_BINDING_MISMATCH).
 * The replay check is the caller's, as for `verifyProof`.
 *
 * @throws a `KeygateError` subclass from `proof.errors.ts`, never anything else
 */
export function verifySignInProof(proofHeaderValues: readonly string[], request: SignInProofRequest, now: number): VerifiedProof {
  const proof = parseProof(proofHeaderValues);
  const entry = resolveKey(proof, undefined);
  checkSignature(proof, entry.alg, entry.key);
  const { claims } = proof;
  if (claims.htm !== request.method) throw new ProofBindingMismatchError('htm');
  if (!htuMatches(claims.htu, request.htu)) throw new ProofBindingMismatchError('htu');
  if (claims.ath !== undefined) throw new ProofBindingMismatchError('ath');
  if (!sameHash(claims.bth, request.body)) throw new ProofBindingMismatchError('bth');
  if (!(Math.abs(claims.iat * 1000 - now) <= TOLERANCE_MS)) throw new ProofClockSkewError(PROOF_IAT_TOLERANCE_SECONDS);
  return { jkt: entry.thumbprint, jti: claims.jti, iat: claims.iat, expiresAt: Math.floor(claims.iat * 1000) + TOLERANCE_MS + 1 };
}
