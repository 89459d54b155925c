import { MAX_ISSUERS } from '../wire/workload-issuer.js';

/** Where a trusted issuer publishes its keys, as the key server last said: its name and its `jwksUri`. */
export interface KnownKeySource {
  readonly issuer: string;
  readonly jwksUri: string;
}

/**
 * The gateway's memory of where each trusted issuer publishes its keys (docs/spec.md §4.24 item 4), so
 * that a sign-in brings the key set the key server will take and reaches it once instead of asking
 * first. Only the key server's answers enter it, so it holds trusted issuers only, by the issuer name
 * a sign-in gave (or none) and the token's `iss`; at most `max` of them, the oldest let go first. It is
 * never trusted: the key server checks every set against the issuer's `jwksUri` of the moment, and
 * answers where to fetch instead when the memory is stale.
 */
export class WorkloadKeySources {
  readonly #max: number;
  readonly #known = new Map<string, KnownKeySource>();

  /** Two entries per issuer at most (with and without its name given): the key server keeps at most MAX_ISSUERS. */
  constructor(max = 2 * MAX_ISSUERS) {
    this.#max = max;
  }

  get size(): number {
    return this.#known.size;
  }

  get(named: string | undefined, iss: string): KnownKeySource | undefined {
    return this.#known.get(keyOf(named, iss));
  }

  remember(named: string | undefined, iss: string, source: KnownKeySource): void {
    const key = keyOf(named, iss);
    this.#known.delete(key);
    this.#known.set(key, source);
    if (this.#known.size > this.#max) this.#known.delete(this.#known.keys().next().value!);
  }

  forget(named: string | undefined, iss: string): void {
    this.#known.delete(keyOf(named, iss));
  }
}

/** A name never holds a space (ISSUER_NAME), so the pair is unambiguous. */
function keyOf(named: string | undefined, iss: string): string {
  return `${named ?? ''} ${iss}`;
}
