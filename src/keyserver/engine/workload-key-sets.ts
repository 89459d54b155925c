import { createHash } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';

export type LocalKeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * jose's key sets by the content of the JWKS each was made from (docs/spec.md §4.24 items 2, 4): a set
 * imports each key once, on first use, and keeps it, so a sign-in with a set seen before verifies
 * with keys already imported, whether it is the issuer's own or one a gateway fetched, sent again with
 * every sign-in (parsed anew by the daemon each time). Keyed by the SHA-256 of the set's JSON, and by
 * the object itself while it lives (the issuer's parsed keys, an embedded gateway's cached fetch);
 * at most `max` sets, the least recently used let go first. Another content (a key added, withdrawn or
 * changed) is another set: nothing of an older set is used for it.
 */
export class LocalKeySets {
  readonly #max: number;
  readonly #byObject = new WeakMap<object, LocalKeySet>();
  readonly #byContent = new Map<string, LocalKeySet>();

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#byContent.size;
  }

  /** The set for `keys`; throws what jose's `createLocalJWKSet` throws for a value that is no key set. */
  of(keys: JSONWebKeySet): LocalKeySet {
    const same = this.#byObject.get(keys);
    if (same !== undefined) return same;
    const digest = createHash('sha256').update(JSON.stringify(keys)).digest('base64url');
    let keySet = this.#byContent.get(digest);
    if (keySet === undefined) keySet = createLocalJWKSet(keys);
    this.#byContent.delete(digest);
    this.#byContent.set(digest, keySet);
    if (this.#byContent.size > this.#max) this.#byContent.delete(this.#byContent.keys().next().value!);
    this.#byObject.set(keys, keySet);
    return keySet;
  }
}
