import { publicKeyOf, type SigningJwk, signingJwk } from '../model/signing-keys.js';
import type { KeyRow, SigningKeyRow } from './engine-model.js';
import { newestVersion, usableVersion } from './key-versions.js';

/** A signing key's public JWK of one version: its `kid` the RFC 7638 thumbprint, `alg` the key's (docs/spec.md §4.25 item 6). */
export function versionJwk(signing: SigningKeyRow, material: Buffer): SigningJwk {
  return signingJwk(publicKeyOf(material), signing.alg);
}

/**
 * The JWKS of a signing key (docs/spec.md §4.25 items 6, 7): every version not retired, newest first.
 * `jwkOf` makes a version's JWK (a cache may answer it: src/keyserver/engine/signing-key-cache.ts).
 */
export function keyJwks(
  key: KeyRow & { readonly signing: SigningKeyRow },
  jwkOf: (version: number, material: Buffer) => SigningJwk = (_version, material) => versionJwk(key.signing, material),
): SigningJwk[] {
  const keys: SigningJwk[] = [];
  for (let version = newestVersion(key); version >= key.minVersion; version--) {
    keys.push(jwkOf(version, usableVersion(key, version).material));
  }
  return keys;
}
