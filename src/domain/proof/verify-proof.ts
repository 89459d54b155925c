import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { jwkThumbprint } from '../../crypto/jwk-thumbprint.js';
import { checkBindings } from './check-bindings.js';
import { headerSegmentOf, type ParsedProof, parseProof } from './parse-proof.js';
import {
  ProofAlgNotAllowedError,
  ProofClockSkewError,
  ProofKeyMismatchError,
  ProofMalformedError,
  ProofSignatureRejectedError,
} from './proof.errors.js';
import {
  PROOF_ALGORITHMS,
  PROOF_IAT_TOLERANCE_SECONDS,
  type ProofAlgorithm,
  type ProofExpectations,
  type ProofKeyCache,
  type ProofKeyEntry,
  type VerifiedProof,
  type VerifyProofOptions,
} from './proof.js';
import { checkProofJwk, type ProofPublicJwk } from './proof-key.js';

const TOLERANCE_MS = PROOF_IAT_TOLERANCE_SECONDS * 1000;
/** ES256 signatures are the 64-byte JWS form r||s (RFC 7518 §3.4); DER is refused. */
const ES256_SIGNATURE_BYTES = 64;

/**
 * Verifies a DPoP proof (RFC 9449 §4.3) for a request of a bound session. The checks run in a fixed
 * order and the first failure wins (docs/spec.md §5.3):
 * shape (PROOF_MALFORMED) -> `alg` (PROOF_ALG_NOT_ALLOWED) -> key (PROOF_MALFORMED,
 * PROOF_KEY_MISMATCH) -> signature (PROOF_SIGNATURE_REJECTED) -> `htm`, `htu`, `ath`, `bth`
 * (PROOF_BINDING_MISMATCH) -> `iat` (PROOF_CLOCK_SKEW). A `nonce` claim is ignored (no nonces are
 * issued, RFC 9449 §8). The `jti` replay check is the caller's: it records the returned entry in the
 * replay cache, keyed by (`jkt`, `jti`), after this has passed.
 *
 * @param proofHeaderValues every `DPoP` header value of the request, as received; exactly one is allowed
 * @param expected the request's facts and the session's `jkt`
 * @param now the gateway's clock, milliseconds since the epoch
 * @throws a `KeygateError` subclass from `proof.errors.ts`, never anything else
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-4.3
 */
export async function verifyProof(
  proofHeaderValues: readonly string[],
  expected: ProofExpectations,
  now: number,
  options: VerifyProofOptions = {},
): Promise<VerifiedProof> {
  const segment = options.keyCache ? headerSegmentOf(proofHeaderValues) : undefined;
  const known = segment === undefined ? undefined : options.keyCache!.get(segment);
  const proof = parseProof(proofHeaderValues, known);
  const entry = known ?? resolveKey(proof, expected.jkt, options.keyCache);
  if (entry.thumbprint !== expected.jkt) throw new ProofKeyMismatchError();
  checkSignature(proof, entry.alg, entry.key);
  checkBindings(proof.claims, expected);
  const { iat, jti } = proof.claims;
  if (!(Math.abs(iat * 1000 - now) <= TOLERANCE_MS)) throw new ProofClockSkewError(PROOF_IAT_TOLERANCE_SECONDS);
  return { jkt: expected.jkt, jti, iat, expiresAt: Math.floor(iat * 1000) + TOLERANCE_MS + 1 };
}

/** RFC 9449 §4.3 step 6: an asymmetric algorithm the server supports; here ES256 or RS256, exactly. */
function checkAlg(alg: unknown): ProofAlgorithm {
  if (!PROOF_ALGORITHMS.includes(alg as ProofAlgorithm)) throw new ProofAlgNotAllowedError();
  return alg as ProofAlgorithm;
}

/**
 * `alg`, then RFC 9449 §4.3 step 7 and §7.1: the key must be well formed and import (a point off the
 * curve is PROOF_MALFORMED); the caller then compares its thumbprint with the session's `jkt`. Only a
 * key that matches is cached, under its header segment, so the cache tracks the bound sessions in
 * use, not what clients send.
 */
export function resolveKey(proof: ParsedProof, jkt: string | undefined, cache?: ProofKeyCache): ProofKeyEntry {
  const alg = checkAlg(proof.header.alg);
  const jwk = checkProofJwk(proof.jwk, alg);
  const entry = { header: proof.header, jwk: proof.jwk, alg, thumbprint: jwkThumbprint(jwk), key: importProofKey(jwk) };
  if (entry.thumbprint === jkt) cache?.set(proof.headerSegment, entry);
  return entry;
}

function importProofKey(jwk: ProofPublicJwk): KeyObject {
  try {
    return createPublicKey({ key: { ...jwk }, format: 'jwk' });
  } catch (cause) {
    throw new ProofMalformedError(`jwk is not a valid ${jwk.kty} public key`, cause);
  }
}

/**
 * RFC 9449 §4.3 step 7: the signature, over the ASCII `<header>.<payload>` segments as sent; RS256 is
 * RSASSA-PKCS1-v1_5 with SHA-256, ES256 the 64-byte r||s form (RFC 7518 §3.3, §3.4). A `crit` header
 * names extensions this verifier does not understand, so it fails the signature (RFC 7515 §4.1.11).
 */
export function checkSignature(proof: ParsedProof, alg: ProofAlgorithm, key: KeyObject): void {
  if ('crit' in proof.header) throw new ProofSignatureRejectedError();
  if (alg === 'ES256' && proof.signature.length !== ES256_SIGNATURE_BYTES) throw new ProofSignatureRejectedError();
  const signingInput = Buffer.from(proof.compact.slice(0, proof.compact.lastIndexOf('.')), 'ascii');
  let valid: boolean;
  try {
    valid =
      alg === 'ES256'
        ? verify('sha256', signingInput, { key, dsaEncoding: 'ieee-p1363' }, proof.signature)
        : verify('sha256', signingInput, key, proof.signature);
  } catch (cause) {
    throw new ProofSignatureRejectedError(cause);
  }
  if (!valid) throw new ProofSignatureRejectedError();
}
