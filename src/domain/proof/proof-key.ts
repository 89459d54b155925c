import { isOnP256 } from '../../crypto/p256-point.js';
import { ProofMalformedError } from './proof.errors.js';
import { PROOF_RSA_MIN_BITS, type ProofAlgorithm } from './proof.js';
import { decodeStrictBase64url } from './strict-base64url.js';

/** A proof's public key reduced to the members it is imported from (and its thumbprint covers). */
export type ProofPublicJwk =
  | { readonly kty: 'EC'; readonly crv: 'P-256'; readonly x: string; readonly y: string }
  | { readonly kty: 'RSA'; readonly n: string; readonly e: string };

/**
 * Private members of any key type (RFC 7518 §6.2.2, §6.3.2, §6.4): a proof carries a public key
 * only. `oth` (multi-prime RSA) joins the contract's list for the same reason.
 */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'] as const;
const KTY_FOR_ALG: Readonly<Record<ProofAlgorithm, 'EC' | 'RSA'>> = { ES256: 'EC', RS256: 'RSA' };
const P256_COORDINATE_BYTES = 32;
/** docs/spec.md §12 item 5: a larger modulus only costs the verifier time. */
const PROOF_RSA_MAX_BITS = 4096;
/** 65537 as a minimal base64url integer (RFC 7518 §6.3.1.2). */
const RSA_EXPONENT_F4 = 'AQAB';

/**
 * The key check's well-formedness half (docs/spec.md §5.3 step 4;
 * RFC 9449 §4.3 step 7): the `jwk` must be a public EC P-256 key (for ES256) or a public RSA key of
 * at least 2048 bits (for RS256), in the minimal encodings of RFC 7518 §6.2.1 and §6.3.1, without a
 * private member. Anything else is PROOF_MALFORMED. Other members (`alg`, `use`, `kid`, ...) are
 * ignored: the key is imported from the required members alone.
 */
export function checkProofJwk(jwk: Readonly<Record<string, unknown>>, alg: ProofAlgorithm): ProofPublicJwk {
  if (PRIVATE_MEMBERS.some((member) => Object.hasOwn(jwk, member))) {
    throw new ProofMalformedError('jwk carries a private key member');
  }
  if (jwk.kty !== 'EC' && jwk.kty !== 'RSA') throw new ProofMalformedError('jwk must be an EC P-256 or RSA key');
  if (jwk.kty !== KTY_FOR_ALG[alg]) throw new ProofMalformedError(`jwk kty does not fit alg ${alg}`);
  return jwk.kty === 'EC' ? checkEcJwk(jwk) : checkRsaJwk(jwk);
}

function checkEcJwk(jwk: Readonly<Record<string, unknown>>): ProofPublicJwk {
  const { crv, x, y } = jwk;
  if (crv !== 'P-256') throw new ProofMalformedError('jwk crv must be P-256');
  if (!isOctets(x, P256_COORDINATE_BYTES) || !isOctets(y, P256_COORDINATE_BYTES)) {
    throw new ProofMalformedError('jwk x and y must be 32-byte base64url coordinates');
  }
  // docs/spec.md §12 item 5: a point off the curve is refused here, before any signature work.
  if (!isOnP256(decodeStrictBase64url(x)!, decodeStrictBase64url(y)!)) throw new ProofMalformedError('jwk point is not on P-256');
  return { kty: 'EC', crv, x, y };
}

function checkRsaJwk(jwk: Readonly<Record<string, unknown>>): ProofPublicJwk {
  const { n, e } = jwk;
  const modulus = typeof n === 'string' ? decodeStrictBase64url(n) : undefined;
  const exponent = typeof e === 'string' ? decodeStrictBase64url(e) : undefined;
  if (!modulus || !exponent || modulus[0] === 0 || exponent[0] === 0) {
    throw new ProofMalformedError('jwk n and e must be minimal base64url integers');
  }
  const bits = bitLength(modulus);
  if (bits < PROOF_RSA_MIN_BITS || bits > PROOF_RSA_MAX_BITS) {
    throw new ProofMalformedError(`jwk RSA modulus must be ${PROOF_RSA_MIN_BITS} to ${PROOF_RSA_MAX_BITS} bits`);
  }
  // docs/spec.md §12 item 5: e = 1 makes every signature verify, a huge e costs time per proof: only 65537.
  if (e !== RSA_EXPONENT_F4) throw new ProofMalformedError('jwk RSA exponent must be 65537');
  return { kty: 'RSA', n: n as string, e: e as string };
}

function isOctets(value: unknown, length: number): value is string {
  return typeof value === 'string' && decodeStrictBase64url(value)?.length === length;
}

/** Bit length of a big-endian unsigned integer whose first byte is not zero. */
function bitLength(bytes: Uint8Array): number {
  return (bytes.length - 1) * 8 + (32 - Math.clz32(bytes[0] ?? 0));
}
