import { createPublicKey } from 'node:crypto';
import { jwkThumbprint } from './jwk-thumbprint.js';
import { isOnP256 } from './p256-point.js';

/** A public key a session is bound to, and its RFC 7638 thumbprint. */
export interface SenderKey {
  readonly jwk: Readonly<Record<string, string>>;
  readonly jkt: string;
}

/** Why a sender key is refused, for the caller to raise as its own BAD_REQUEST. */
export interface SenderKeyRefusal {
  readonly refused: string;
  readonly cause?: unknown;
}

/** The BAD_REQUEST a side raises for a refused sender key, as its own error class. */
export type SenderKeyError = new (detail: string, cause?: unknown) => Error;

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/**
 * Checks a sender key (docs/spec.md §4.4, §4.8): a public EC P-256 key, or with
 * `allowRsa` a public RSA key of at least 2048 bits. A private member is refused. Both the gateway
 * and the key server apply this one rule.
 */
export function checkSenderKey(value: unknown, options: { allowRsa: boolean; field: string }): SenderKey | SenderKeyRefusal {
  const refuse = (why: string, cause?: unknown): SenderKeyRefusal => ({ refused: `${options.field}: ${why}`, cause });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('not a JWK object');
  const jwk = value as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) return refuse('carries a private key member');
  let publicJwk: Record<string, string>;
  if (jwk.kty === 'EC') {
    if (jwk.crv !== 'P-256') return refuse('an EC key must be on P-256');
    publicJwk = { kty: 'EC', crv: 'P-256', x: String(jwk.x), y: String(jwk.y) };
  } else if (jwk.kty === 'RSA' && options.allowRsa) {
    publicJwk = { kty: 'RSA', n: String(jwk.n), e: String(jwk.e) };
  } else {
    return refuse(options.allowRsa ? 'kty must be EC or RSA' : 'kty must be EC (P-256)');
  }
  let bits: number | undefined;
  try {
    const key = createPublicKey({ key: publicJwk, format: 'jwk' });
    bits = key.asymmetricKeyDetails?.modulusLength;
  } catch (cause) {
    return refuse('not a valid public key', cause);
  }
  // docs/spec.md §12 item 5: e = 1 makes every signature verify, a huge e or modulus costs time per proof.
  if (publicJwk.kty === 'RSA' && ((bits ?? 0) < 2048 || (bits ?? 0) > 4096)) return refuse('an RSA key must have 2048 to 4096 bits');
  if (publicJwk.kty === 'RSA' && publicJwk.e !== 'AQAB') return refuse('an RSA key must have the exponent 65537');
  if (publicJwk.kty === 'EC' && !isOnP256(Buffer.from(publicJwk.x!, 'base64url'), Buffer.from(publicJwk.y!, 'base64url'))) {
    return refuse('the point is not on P-256');
  }
  return { jwk: publicJwk, jkt: jwkThumbprint(publicJwk) };
}

/** Validates a sender key (docs/spec.md §4.4, §4.8); a refusal is raised as `BadRequest` (the side's BAD_REQUEST). */
export function parseSenderKey(value: unknown, options: { allowRsa: boolean; field: string }, BadRequest: SenderKeyError): SenderKey {
  const checked = checkSenderKey(value, options);
  if ('refused' in checked) throw new BadRequest(checked.refused, checked.cause);
  return checked;
}
