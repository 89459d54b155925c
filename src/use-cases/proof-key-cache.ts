import type { ProofKeyCache, ProofKeyEntry } from '../domain/proof/proof.js';

export const DEFAULT_PROOF_KEY_CACHE_ENTRIES = 1_000;

/**
 * Proof keys already imported and segmented, by the proof's header segment as sent (it carries the
 * `jwk` member), least recently used dropped first. Only keys that matched a session's `jkt` are put
 * here (see `verifyProof`), so its size tracks the number of bound sessions in use, not what clients send.
 */
export class LruProofKeyCache implements ProofKeyCache {
  readonly #keys = new Map<string, ProofKeyEntry>();
  readonly #maxEntries: number;

  constructor(maxEntries = DEFAULT_PROOF_KEY_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.#maxEntries = maxEntries;
  }

  get(segment: string): ProofKeyEntry | undefined {
    const key = this.#keys.get(segment);
    if (key !== undefined) {
      this.#keys.delete(segment);
      this.#keys.set(segment, key);
    }
    return key;
  }

  set(segment: string, key: ProofKeyEntry): void {
    this.#keys.delete(segment);
    this.#keys.set(segment, key);
    if (this.#keys.size > this.#maxEntries) this.#keys.delete(this.#keys.keys().next().value!);
  }

  get size(): number {
    return this.#keys.size;
  }
}
