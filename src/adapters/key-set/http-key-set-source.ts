import type { Clock } from '../../ports/clock.port.js';
import type { KeySetSource } from '../../ports/key-set-source.port.js';
import { type FetchLimits, fetchKeySet, type Resolve } from './fetch-key-set.js';

export interface KeySetCacheOptions extends FetchLimits {
  /** How long a fetched set is used without asking again. */
  readonly cacheMs: number;
  /** The least time between two fetches of one issuer's set (an unknown `kid`, a failure). */
  readonly coolDownMs: number;
}

interface Cached {
  readonly uri: string;
  readonly keys: unknown;
  readonly fetchedAt: number;
}

interface Attempt {
  readonly at: number;
  readonly uri: string;
  readonly failure: Error | undefined;
}

function holdsKid(keySet: unknown, kid: string): boolean {
  const keys = (keySet as { keys: readonly { kid?: unknown }[] }).keys;
  return keys.some((key) => key !== null && typeof key === 'object' && key.kid === kid);
}

/**
 * Issuers' key sets over HTTPS (docs/spec.md §4.24 item 4), cached per issuer for `cacheMs`. A token
 * naming a `kid` the cached set lacks refetches it, at most once per `coolDownMs`: a flood of unknown
 * `kid`s costs one fetch. Concurrent requests for one issuer share one fetch.
 */
export class HttpKeySetSource implements KeySetSource {
  readonly #clock: Clock;
  readonly #options: KeySetCacheOptions;
  readonly #resolve: Resolve | undefined;
  readonly #cached = new Map<string, Cached>();
  readonly #attempts = new Map<string, Attempt>();
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(clock: Clock, options: KeySetCacheOptions, resolve?: Resolve) {
    this.#clock = clock;
    this.#options = options;
    this.#resolve = resolve;
  }

  async keySet(issuer: string, uri: string, kid: string | undefined): Promise<unknown> {
    const now = this.#clock.now();
    const cached = this.#cached.get(issuer);
    const usable = cached !== undefined && cached.uri === uri && now - cached.fetchedAt < this.#options.cacheMs;
    if (usable && (kid === undefined || holdsKid(cached.keys, kid))) return cached.keys;
    const attempt = this.#attempts.get(issuer);
    if (attempt !== undefined && now - attempt.at < this.#options.coolDownMs && attempt.uri === uri) {
      if (attempt.failure !== undefined) throw attempt.failure;
      // Refetched within the cool-down already: the set as it is; the key server refuses an unknown kid.
      if (usable) return cached.keys;
    }
    return await this.#fetchOnce(issuer, uri);
  }

  health(): 'ok' | 'unavailable' | undefined {
    if (this.#attempts.size === 0) return undefined;
    return [...this.#attempts.values()].some((attempt) => attempt.failure !== undefined) ? 'unavailable' : 'ok';
  }

  #fetchOnce(issuer: string, uri: string): Promise<unknown> {
    const running = this.#inFlight.get(issuer);
    if (running !== undefined) return running;
    const started = this.#clock.now();
    const fetching = fetchKeySet(uri, this.#options, this.#resolve)
      .then((keys) => {
        this.#cached.set(issuer, { uri, keys, fetchedAt: this.#clock.now() });
        this.#attempts.set(issuer, { at: started, uri, failure: undefined });
        return keys;
      })
      .catch((error: Error) => {
        this.#attempts.set(issuer, { at: started, uri, failure: error });
        throw error;
      })
      .finally(() => this.#inFlight.delete(issuer));
    this.#inFlight.set(issuer, fetching);
    return fetching;
  }
}
