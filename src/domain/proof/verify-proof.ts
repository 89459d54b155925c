import { compactVerify, importJWK } from 'jose';
import { checkBindings } from './check-bindings.js';
import { jwkThumbprint } from './jwk-thumbprint.js';
import { parseProof, type ParsedProof } from './parse-proof.js';
import { checkProofJwk, type ProofPublicJwk } from './proof-key.js';
import {
  PROOF_ALGORITHMS,
  PROOF_IAT_TOLERANCE_SECONDS,
  type ProofAlgorithm,
  type ProofExpectations,
  type ProofKeyCache,
  type VerifiedProof,
  type VerifyProofOptions,
} from './proof.js';
import {
  ProofAlgNotAllowedError,
  ProofClockSkewError,
  ProofKeyMismatchError,
  ProofMalformedError,
  ProofSignatureRejectedError,
} from './proof.errors.js';

const TOLERANCE_MS = PROOF_IAT_TOLERANCE_SECONDS * 1000;
/** ES256 signatures are the 64-byte JWS form r||s (RFC 7518 §3.4); DER is refused. */
const ES256_SIGNATURE_BYTES = 64;

/**
 * Verifies a DPoP proof (RFC 9449 §4.3) for a request of a bound session. The checks run in a fixed
 * order and the first failure wins (api-surface.md "Proof verification: the fine points"):
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
  const proof = parseProof(proofHeaderValues);
  const alg = checkAlg(proof.header.alg);
  const jwk = checkProofJwk(proof.jwk, alg);
  const key = await resolveKey(jwk, alg, expected.jkt, options.keyCache);
  await checkSignature(proof, alg, key);
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
 * RFC 9449 §4.3 step 7 and §7.1: the key must import (a point off the curve is PROOF_MALFORMED) and
 * its thumbprint must be the session's `jkt`. Only keys that match are cached.
 */
async function resolveKey(jwk: ProofPublicJwk, alg: ProofAlgorithm, jkt: string, cache?: ProofKeyCache): Promise<CryptoKey> {
  const thumbprint = await jwkThumbprint(jwk);
  const cached = cache?.get(thumbprint);
  const key = cached ?? (await importProofKey(jwk, alg));
  if (thumbprint !== jkt) throw new ProofKeyMismatchError();
  if (!cached) cache?.set(thumbprint, key);
  return key;
}

async function importProofKey(jwk: ProofPublicJwk, alg: ProofAlgorithm): Promise<CryptoKey> {
  try {
    return (await importJWK(jwk, alg)) as CryptoKey;
  } catch (cause) {
    throw new ProofMalformedError(`jwk is not a valid ${jwk.kty} public key`, cause);
  }
}

/** RFC 9449 §4.3 step 7: the signature, over the ASCII `<header>.<payload>` segments as sent. */
async function checkSignature(proof: ParsedProof, alg: ProofAlgorithm, key: CryptoKey): Promise<void> {
  if (alg === 'ES256' && proof.signature.length !== ES256_SIGNATURE_BYTES) throw new ProofSignatureRejectedError();
  try {
    await compactVerify(proof.compact, key, { algorithms: [alg] });
  } catch (cause) {
    throw new ProofSignatureRejectedError(cause);
  }
}
