import { RateLimitedError } from '../domain/throttle/throttle.errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { ThrottleStore } from '../ports/throttle-store.port.js';

/** The window of the minting rate. */
const WINDOW_MS = 60_000;

/**
 * The rate at which one principal mints sessions bound to a key of its choosing (scoped, delegated).
 * Each brings a proof key of its own, and every key has its own share of the replay cache: minting
 * is bounded so that one principal cannot multiply its keys at will. Counted per fixed minute in the
 * throttle store (shared by every gateway when it lives in Redis); one counter per minute, so a
 * count never outlives its window.
 */
export class MintRate {
  readonly #store: ThrottleStore;
  readonly #clock: Clock;
  readonly #perMinute: number;

  constructor(store: ThrottleStore, clock: Clock, perMinute: number) {
    this.#store = store;
    this.#clock = clock;
    this.#perMinute = perMinute;
  }

  /**
   * Counts one mint of `principalId`, before anything is minted.
   * @throws RATE_LIMITED (429, Retry-After: the rest of the minute) past the rate
   */
  async count(principalId: string): Promise<void> {
    const now = this.#clock.now();
    const window = Math.floor(now / WINDOW_MS);
    // Within one fixed minute no two mints are a window apart, so the store's count is the minute's.
    const { count } = await this.#store.fail(`mint:${principalId}:${window}`, now, WINDOW_MS);
    if (count <= this.#perMinute) return;
    const retryAfterSeconds = ((window + 1) * WINDOW_MS - now) / 1000;
    throw new RateLimitedError(
      retryAfterSeconds,
      `too many scoped or delegated sessions minted: at most ${this.#perMinute} a minute; try again later`,
    );
  }
}
