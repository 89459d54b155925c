import { createHash, generateKeyPair, type KeyObject, randomBytes, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import type { ProofRequest } from '../../src/domain/proof/proof.js';

/** A key that signs proofs, with its public JWK and RFC 7638 thumbprint. */
export interface ProofSigner {
  /** The algorithm this key signs with (the header may claim another). */
  readonly alg: 'ES256' | 'RS256';
  readonly privateKey: KeyObject;
  readonly publicJwk: Readonly<Record<string, string>>;
  readonly jkt: string;
}

export interface SignerOptions {
  /** RSA modulus bits (default 2048). */
  readonly modulusLength?: number;
  /** EC curve (default P-256). */
  readonly namedCurve?: 'P-256' | 'P-384';
}

/** A fresh key pair: EC P-256 for ES256, RSA 2048 for RS256, unless told otherwise. */
const generate = promisify(generateKeyPair) as (
  type: 'ec' | 'rsa',
  options: { namedCurve?: string; modulusLength?: number },
) => Promise<{ privateKey: KeyObject; publicKey: KeyObject }>;

export async function makeSigner(alg: 'ES256' | 'RS256', options: SignerOptions = {}): Promise<ProofSigner> {
  // Generated off the event loop: an in-process gateway shares it, and a 4096-bit RSA key generated
  // synchronously on a loaded machine stalls its sockets long enough to break a keep-alive reuse.
  const { privateKey, publicKey } =
    alg === 'ES256'
      ? await generate('ec', { namedCurve: options.namedCurve ?? 'P-256' })
      : await generate('rsa', { modulusLength: options.modulusLength ?? 2048 });
  const publicJwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return { alg, privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk) };
}

/** A bound request as a route would see it. */
export const REQUEST: ProofRequest = {
  method: 'POST',
  htu: 'https://gateway.example/api/crypto/encrypt',
  credential: 'kg_bWFkZS11cC1zZXNzaW9uLWlkLWZvci10ZXN0cw',
  body: Buffer.from('{"ttag":"AAAAAAAAAAAAAAAAAAAAAA","plaintext":"aGVsbG8="}'),
};

/** The moment every test starts at, and the `iat` of a proof minted then. */
export const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

/** How to deviate from a valid proof. `undefined` in `header` or `claims` removes the member. */
export interface ProofSpec {
  readonly header?: Readonly<Record<string, unknown>>;
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Replaces the encoded header or payload segment with this exact text (then signed as is). */
  readonly rawHeader?: string;
  readonly rawPayload?: string;
  /** Signs with this key instead (the header still shows the first signer's jwk unless overridden). */
  readonly signWith?: ProofSigner;
  /** ES256 signature encoding; `der` makes the form RFC 7518 §3.4 forbids. */
  readonly dsaEncoding?: 'ieee-p1363' | 'der';
  readonly mutateSignature?: (signature: Buffer) => Buffer;
}

export function sha256Base64url(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('base64url');
}

export function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The header and claims of a valid proof of `signer` for `request` at `now`. */
export function validParts(signer: ProofSigner, request: ProofRequest = REQUEST, now = NOW) {
  return {
    header: { typ: 'dpop+jwt', alg: signer.alg, jwk: signer.publicJwk } as Record<string, unknown>,
    claims: {
      jti: randomBytes(12).toString('base64url'),
      htm: request.method,
      htu: request.htu,
      iat: Math.floor(now / 1000),
      ath: sha256Base64url(request.credential),
      bth: sha256Base64url(request.body ?? ''),
    } as Record<string, unknown>,
  };
}

/** A compact proof: valid for `request` at `now` unless `spec` says how it deviates. */
export function buildProof(signer: ProofSigner, request: ProofRequest = REQUEST, now = NOW, spec: ProofSpec = {}): string {
  const parts = validParts(signer, request, now);
  const header = spec.rawHeader ?? encodeJson(merge(parts.header, spec.header));
  const payload = spec.rawPayload ?? encodeJson(merge(parts.claims, spec.claims));
  return signCompact(`${header}.${payload}`, spec.signWith ?? signer, spec);
}

/** Signs `<header>.<payload>` with the signer's own algorithm and appends the signature segment. */
export function signCompact(
  signingInput: string,
  signer: ProofSigner,
  spec: Pick<ProofSpec, 'dsaEncoding' | 'mutateSignature'> = {},
): string {
  const key = signer.alg === 'ES256' ? { key: signer.privateKey, dsaEncoding: spec.dsaEncoding ?? 'ieee-p1363' } : signer.privateKey;
  let signature: Buffer = sign('sha256', Buffer.from(signingInput, 'ascii'), key);
  if (spec.mutateSignature) signature = spec.mutateSignature(signature);
  return `${signingInput}.${signature.toString('base64url')}`;
}

function merge(base: Record<string, unknown>, changes: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const merged = { ...base };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}
