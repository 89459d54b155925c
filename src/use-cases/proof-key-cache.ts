import type { ProofKeyCache } from '../domain/proof/proof.js';

export const DEFAULT_PROOF_KEY_CACHE_ENTRIES = 1_000;

/**
 * Proof keys already imported, by RFC 7638 thumbprint, least recently used dropped first. Only keys
 * that matched a session's `jkt` are put here (see `verifyProof`), so its size tracks the number of
 * bound sessions in use, not what clients send.
 */
export class LruProofKeyCache implements ProofKeyCache {
  readonly #keys = new Map<string, CryptoKey>();
  readonly #maxEntries: number;

  constructor(maxEntries = DEFAULT_PROOF_KEY_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.#maxEntries = maxEntries;
  }

  get(thumbprint: string): CryptoKey | undefined {
    const key = this.#keys.get(thumbprint);
    if (key !== undefined) {
      this.#keys.delete(thumbprint);
      this.#keys.set(thumbprint, key);
    }
    return key;
  }

  set(thumbprint: string, key: CryptoKey): void {
    this.#keys.delete(thumbprint);
    this.#keys.set(thumbprint, key);
    if (this.#keys.size > this.#maxEntries) this.#keys.delete(this.#keys.keys().next().value!);
  }

  get size(): number {
    return this.#keys.size;
  }
}
