import { constants, type KeyObject, sign, verify } from 'node:crypto';
import { p256, p384 } from '@noble/curves/nist.js';
import { hashOfAlg, type SigningAlg } from '../../wire/key-type.js';
import { pkcs1SignDigest, pkcs1VerifyDigest, pssSignDigest, pssVerifyDigest } from './rsa-digest-signature.js';

/**
 * A version's keys as the signing arithmetic uses them, parsed once (src/keyserver/engine/signing-key-cache.ts):
 * the private and public KeyObject and, for an EC key, the scalar and point noble signs and verifies a
 * digest with (node:crypto cannot take a digest already made).
 */
export interface SigningKeyObjects {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly ec?: { readonly scalar: Uint8Array; readonly point: Uint8Array };
}

/** What is signed: the message itself (hashed by the algorithm) or its digest (docs/spec.md §4.25 item 3). */
export type SignedInput = { readonly message: Uint8Array } | { readonly digest: Uint8Array };

/** The ECDSA signature's raw r || s length (RFC 7518 §3.4) and the curve noble signs a digest on. */
const ECDSA = { ES256: { length: 64, curve: p256 }, ES384: { length: 96, curve: p384 } } as const;

/** Node's padding options of an RSA algorithm: PKCS#1 v1.5, or PSS with a salt as long as the hash. */
function rsaPadding(alg: SigningAlg) {
  return alg.startsWith('PS')
    ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
    : { padding: constants.RSA_PKCS1_PADDING };
}

/**
 * The signature of `input` under `alg` (docs/spec.md §4.25 items 2, 3): ECDSA as raw r || s, Ed25519
 * over the message, RSA as long as the modulus. `salt` gives a PSS signature of a digest its salt.
 * The caller checked that the algorithm fits the key and that a digest is as long as its hash.
 */
export function signInput(keys: SigningKeyObjects, alg: SigningAlg, input: SignedInput, salt: () => Uint8Array): Buffer {
  const hash = hashOfAlg(alg);
  if (hash === undefined) return sign(null, messageOf(input), keys.privateKey);
  if (alg === 'ES256' || alg === 'ES384') {
    if ('message' in input) return sign(hash.name, input.message, { key: keys.privateKey, dsaEncoding: 'ieee-p1363' });
    return Buffer.from(ECDSA[alg].curve.sign(input.digest, ecOf(keys).scalar, { prehash: false, lowS: false }));
  }
  if ('message' in input) return sign(hash.name, input.message, { key: keys.privateKey, ...rsaPadding(alg) });
  if (alg.startsWith('PS')) return pssSignDigest(keys.privateKey, hash.name, input.digest, salt());
  return pkcs1SignDigest(keys.privateKey, hash.name, input.digest);
}

/** Whether `signature` is `alg`'s signature of `input` under the public key; a malformed one is false, never an error. */
export function verifyInput(keys: SigningKeyObjects, alg: SigningAlg, input: SignedInput, signature: Uint8Array): boolean {
  const hash = hashOfAlg(alg);
  try {
    if (hash === undefined) return signature.length === 64 && verify(null, messageOf(input), keys.publicKey, signature);
    if (alg === 'ES256' || alg === 'ES384') {
      if (signature.length !== ECDSA[alg].length) return false;
      if ('message' in input) return verify(hash.name, input.message, { key: keys.publicKey, dsaEncoding: 'ieee-p1363' }, signature);
      return ECDSA[alg].curve.verify(signature, input.digest, ecOf(keys).point, { prehash: false, lowS: false });
    }
    if ('message' in input) return verify(hash.name, input.message, { key: keys.publicKey, ...rsaPadding(alg) }, signature);
    if (alg.startsWith('PS')) return pssVerifyDigest(keys.publicKey, hash.name, input.digest, signature);
    return pkcs1VerifyDigest(keys.publicKey, hash.name, input.digest, signature);
  } catch {
    return false;
  }
}

function messageOf(input: SignedInput): Uint8Array {
  if (!('message' in input)) throw new RangeError('EdDSA signs the message');
  return input.message;
}

function ecOf(keys: SigningKeyObjects): { readonly scalar: Uint8Array; readonly point: Uint8Array } {
  if (keys.ec === undefined) throw new RangeError('not an EC key');
  return keys.ec;
}

/** The EC scalar and uncompressed point of a private key, for noble; none for another key type. */
export function ecPartsOf(privateKey: KeyObject): SigningKeyObjects['ec'] {
  if (privateKey.asymmetricKeyType !== 'ec') return undefined;
  const jwk = privateKey.export({ format: 'jwk' });
  const bytes = (member: string | undefined) => Buffer.from(member ?? '', 'base64url');
  return { scalar: bytes(jwk.d), point: Buffer.concat([Buffer.from([4]), bytes(jwk.x), bytes(jwk.y)]) };
}
