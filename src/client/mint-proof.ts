import { toBase64url, utf8 } from './base64.js';
import type { ProofKey } from './proof-key.js';
import { randomBytes, sha256 } from './web-crypto.js';

/** What a proof is bound to: one request, exactly as it is sent. */
export interface ProofRequest {
  readonly method: string;
  /** The request URL; its query and fragment are left out of `htu`. */
  readonly url: string | URL;
  /** The bearer value carried by the request (the session id); none for a sign-in, whose proof has no `ath`. */
  readonly credential: string | undefined;
  /** The exact body bytes sent; none for a request without a body. */
  readonly body?: Uint8Array | undefined;
}

/** The payload claims of a proof (docs/spec.md §5.2). */
export interface ProofClaims {
  readonly jti: string;
  readonly htm: string;
  readonly htu: string;
  readonly iat: number;
  readonly ath?: string;
  readonly bth: string;
}

/** `htu`: scheme, host and path, without query or fragment (RFC 9449 §4.2). */
export function proofHtu(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * Mints a fresh DPoP proof for one request (docs/spec.md §5.2; RFC 9449 §4.2): a compact JWS with header
 * `{ typ: dpop+jwt, alg: ES256, jwk }` and claims `jti` (16 random bytes), `htm`, `htu`, `iat`,
 * `ath` (SHA-256 of the exact bearer value; none at a sign-in, docs/spec.md §4.24 item 2) and `bth` (SHA-256 of the exact body bytes; of the empty
 * string when there is no body, a local extension, docs/spec.md §5.2). `nowMs` is the client's clock.
 */
export async function mintProof(key: ProofKey, request: ProofRequest, nowMs: number = Date.now()): Promise<string> {
  const claims: ProofClaims = {
    jti: toBase64url(randomBytes(16)),
    htm: request.method.toUpperCase(),
    htu: proofHtu(request.url),
    iat: Math.floor(nowMs / 1000),
    ...(request.credential === undefined ? {} : { ath: toBase64url(await sha256(utf8(request.credential))) }),
    bth: toBase64url(await sha256(request.body ?? new Uint8Array(0))),
  };
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const signingInput = `${encodeSegment(header)}.${encodeSegment(claims)}`;
  const signature = await key.sign(utf8(signingInput));
  return `${signingInput}.${toBase64url(signature)}`;
}

function encodeSegment(value: unknown): string {
  return toBase64url(utf8(JSON.stringify(value)));
}
