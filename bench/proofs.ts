import { createHash, createPrivateKey, type JsonWebKey, randomBytes, sign } from 'node:crypto';

/** What a DPoP proof of a bound session's request is made of (RFC 9449 §4.2): its key, the request, and the credential `ath` binds. */
export interface ProofSpec {
  readonly privateJwk: JsonWebKey;
  readonly publicJwk: JsonWebKey;
  readonly htu: string;
  readonly htm: string;
  readonly credential: string;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256 = (data: string) => createHash('sha256').update(data).digest('base64url');

/** `count` single-use ES256 proofs of `spec` for a request without a body, each with a fresh `jti`, all issued at `nowMs`. */
export function mintProofs(spec: ProofSpec, count: number, nowMs = Date.now()): string[] {
  const key = createPrivateKey({ key: spec.privateJwk, format: 'jwk' });
  const header = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: spec.publicJwk });
  const ath = sha256(spec.credential);
  const bth = sha256('');
  const iat = Math.floor(nowMs / 1000);
  return Array.from({ length: count }, () => {
    const input = `${header}.${b64({ jti: randomBytes(12).toString('base64url'), htm: spec.htm, htu: spec.htu, iat, ath, bth })}`;
    return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  });
}
