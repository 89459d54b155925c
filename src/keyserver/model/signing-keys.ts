import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { jwkThumbprint } from '../../crypto/jwk-thumbprint.js';
import type { SigningAlg, SigningKeyType } from '../../wire/key-type.js';

const generate = promisify(generateKeyPair);

/** A signing key version's public key as a JWK (docs/spec.md §4.25 item 6): its members, `kid`, `alg`, `use`. */
export interface SigningJwk {
  readonly kty: 'EC' | 'OKP' | 'RSA';
  readonly kid: string;
  readonly alg: SigningAlg;
  readonly use: 'sig';
  readonly [member: string]: string;
}

/**
 * A fresh private key of `type` as PKCS#8 (DER): the material of one version of a signing key
 * (docs/spec.md §4.25 item 1). Made off the event loop: an RSA-4096 key takes a while.
 */
export async function generateSigningKey(type: SigningKeyType): Promise<Buffer> {
  const pair =
    type === 'ec-p256' || type === 'ec-p384'
      ? await generate('ec', { namedCurve: type === 'ec-p256' ? 'P-256' : 'P-384' })
      : type === 'ed25519'
        ? await generate('ed25519')
        : await generate('rsa', { modulusLength: Number(type.slice('rsa-'.length)), publicExponent: 0x10001 });
  return pair.privateKey.export({ format: 'der', type: 'pkcs8' });
}

/** The private key a version's material holds. */
export function privateKeyOf(pkcs8: Buffer): KeyObject {
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

/** The public half of a version's material. */
export function publicKeyOf(pkcs8: Buffer): KeyObject {
  return createPublicKey(privateKeyOf(pkcs8));
}

/** A public key's JWK with its RFC 7638 thumbprint as `kid` (docs/spec.md §4.25 item 6). */
export function signingJwk(publicKey: KeyObject, alg: SigningAlg): SigningJwk {
  const members = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return { ...members, kid: jwkThumbprint(members), alg, use: 'sig' } as SigningJwk;
}
