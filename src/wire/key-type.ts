/**
 * Key types and signing algorithms (docs/spec.md §4.25 items 1, 2): `aes` is the symmetric key of
 * §4.6; every other type is a signing key whose private half never leaves the key server.
 */
export const KEY_TYPES = ['aes', 'ec-p256', 'ec-p384', 'ed25519', 'rsa-2048', 'rsa-3072', 'rsa-4096'] as const;
export type KeyType = (typeof KEY_TYPES)[number];
export type SigningKeyType = Exclude<KeyType, 'aes'>;

/** The JOSE names of the signing algorithms (RFC 7518 §3.1, RFC 8037 §3.1). */
export const SIGNING_ALGS = ['ES256', 'ES384', 'EdDSA', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

const RSA_ALGS: readonly SigningAlg[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/** The algorithms each signing key type fits (docs/spec.md §4.25 item 2); the first is the type's default `alg`. */
export const ALGS_OF_TYPE: Readonly<Record<SigningKeyType, readonly SigningAlg[]>> = {
  'ec-p256': ['ES256'],
  'ec-p384': ['ES384'],
  ed25519: ['EdDSA'],
  'rsa-2048': RSA_ALGS,
  'rsa-3072': RSA_ALGS,
  'rsa-4096': RSA_ALGS,
};

export function isSigningType(type: KeyType): type is SigningKeyType {
  return type !== 'aes';
}

/** Whether `alg` fits a key of `type` (docs/spec.md §4.25 item 2). */
export function algFits(type: SigningKeyType, alg: SigningAlg): boolean {
  return ALGS_OF_TYPE[type].includes(alg);
}

/** The hash an algorithm signs under, as Node's `crypto` names it, and its length in bytes; none for EdDSA. */
export function hashOfAlg(alg: SigningAlg): { readonly name: 'sha256' | 'sha384' | 'sha512'; readonly length: 32 | 48 | 64 } | undefined {
  if (alg === 'EdDSA') return undefined;
  if (alg.endsWith('256')) return { name: 'sha256', length: 32 };
  if (alg.endsWith('384')) return { name: 'sha384', length: 48 };
  return { name: 'sha512', length: 64 };
}

/** Bounds and default of a signing key's `jwtMaxLifetime`, in seconds (docs/spec.md §4.25 items 1, 5). */
export const JWT_MAX_LIFETIME = { min: 60, max: 2_592_000, default: 3600 } as const;

/** A signed message's largest size, decoded (docs/spec.md §4.25 item 3). */
export const SIGN_MESSAGE_MAX_BYTES = 65_536;
