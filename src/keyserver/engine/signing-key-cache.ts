import { createHash, createPublicKey } from 'node:crypto';
import { ecPartsOf, type SigningKeyObjects } from '../model/signature-crypto.js';
import { privateKeyOf, type SigningJwk, signingJwk } from '../model/signing-keys.js';
import type { SigningKeyRow } from './engine-model.js';

/** A version's parsed keys and its public JWK (with `kid`). */
export interface ParsedVersion extends SigningKeyObjects {
  readonly jwk: SigningJwk;
}

/** The most versions the cache holds; the least recently used goes first. */
export const SIGNING_KEY_CACHE_ENTRIES = 1000;

/**
 * The parsed keys of signing key versions, per engine (docs/spec.md §4.25 item 3): parsing a PKCS#8
 * and taking its JWK thumbprint cost more than an ECDSA signature, so each version is parsed once.
 * An entry is found by ttag, version and a hash of the material, so a version whose material differs
 * (a restored backup of another server) is never answered from another's entry. Bounded (LRU).
 */
export class SigningKeyCache {
  readonly #entries = new Map<string, ParsedVersion>();
  readonly #limit: number;

  constructor(limit = SIGNING_KEY_CACHE_ENTRIES) {
    this.#limit = limit;
  }

  /** The parsed keys of `material`, version `version` of the key `ttag` under the settings `signing`. */
  parsed(ttag: string, version: number, signing: SigningKeyRow, material: Buffer): ParsedVersion {
    const id = `${ttag} ${version} ${signing.alg} ${createHash('sha256').update(material).digest('base64')}`;
    const found = this.#entries.get(id);
    if (found !== undefined) {
      this.#entries.delete(id);
      this.#entries.set(id, found);
      return found;
    }
    const parsed = parse(signing, material);
    this.#entries.set(id, parsed);
    if (this.#entries.size > this.#limit) this.#entries.delete(this.#entries.keys().next().value as string);
    return parsed;
  }
}

function parse(signing: SigningKeyRow, material: Buffer): ParsedVersion {
  const privateKey = privateKeyOf(material);
  const publicKey = createPublicKey(privateKey);
  const ec = ecPartsOf(privateKey);
  return { privateKey, publicKey, jwk: signingJwk(publicKey, signing.alg), ...(ec === undefined ? {} : { ec }) };
}
