import { isKeygateError } from '../domain/errors/index.js';
import { nameDelayMs } from '../domain/throttle/name-delay.js';
import { RateLimitedError } from '../domain/throttle/throttle.errors.js';
import {
  type FailureRecord,
  retryAfterHeldMs,
  retryAfterMs,
  type ThrottlePolicy,
  withInFlight,
} from '../domain/throttle/throttle-policy.js';
import type { Timer } from '../ports/clock.port.js';
import type { Metrics } from '../ports/metrics.port.js';
import type { Reservation, ThrottleStore } from '../ports/throttle-store.port.js';

/**
 * The longest a password check's place is held should its gateway never settle it (stopped mid-check):
 * beyond the longest name delay and a key server's answer.
 */
export const CHECK_HOLD_MS = 60_000;

export interface LoginThrottleDeps {
  readonly store: ThrottleStore;
  /** Reads the time and lets a name's delay pass. */
  readonly clock: Timer;
  /** Failures of one user name from one address before that address waits (TE_GATEWAY_THROTTLE_NAME_FAILURES). */
  readonly nameFailures: number;
  /** Failures per client address before the waits begin (TE_GATEWAY_THROTTLE_ADDRESS_FAILURES). */
  readonly addressFailures: number;
  /** TE_GATEWAY_THROTTLE_WINDOW_SECONDS, in ms. */
  readonly windowMs: number;
  /** Requests per second per address on the unauthenticated login operations; undefined: off. */
  readonly ratePerSecond?: number | undefined;
  /** Where each refused login is counted (`keygate_logins_throttled_total`). */
  readonly metrics?: Pick<Metrics, 'loginThrottled'>;
}

/**
 * Failed-login throttling, and the opt-in request rate per address. Three counters of failures:
 * - per user name and client address: refuses (429) that address for that name past its limit;
 * - per client address: refuses that address for every name past its limit;
 * - per user name, from every address: never refuses, but delays each check of that name once it
 *   rises (`nameDelayMs`), so guessing one name from many addresses is slowed while the real user,
 *   from an address that has not failed, still signs in.
 * Failures from other addresses therefore never refuse a right password. Password logins and the
 * own-password change's `currentPassword` both run through `guardPassword`, which holds the attempt's
 * place on the three counters before it reads them (`ThrottleStore.reserve`): a check still running
 * counts as a failure to come, so guesses sent at once cannot all pass a limit none of them has
 * reached yet.
 */
export class LoginThrottle {
  readonly #deps: LoginThrottleDeps;
  readonly #name: ThrottlePolicy;
  readonly #address: ThrottlePolicy;

  constructor(deps: LoginThrottleDeps) {
    this.#deps = deps;
    this.#name = { limit: deps.nameFailures, windowMs: deps.windowMs };
    this.#address = { limit: deps.addressFailures, windowMs: deps.windowMs };
  }

  /**
   * Runs one password check for `user` from `address`: its place is held on the three counters first;
   * then it is refused with RATE_LIMITED while the address, or the address for this name, must wait,
   * counting the checks in flight as failures (docs/spec.md §10 item 2); otherwise it runs after the
   * name's delay. A WRONG_CREDENTIAL outcome counts a failure on all three counters; a success forgets
   * the name's, and this address's for it. The place is let go whatever the outcome.
   */
  async guardPassword<T>(user: string, address: string, check: () => Promise<T>): Promise<T> {
    const { store, clock } = this.#deps;
    const now = clock.now();
    const held = await store.reserve([addressKey(address), pairKey(user, address), nameKey(user)], now, CHECK_HOLD_MS);
    try {
      return await this.#checkHeld(user, address, held, check);
    } finally {
      // A store that fails here lets the place go at CHECK_HOLD_MS; the check's own answer stands.
      await store.release(held).catch(() => undefined);
    }
  }

  async #checkHeld<T>(user: string, address: string, held: Reservation, check: () => Promise<T>): Promise<T> {
    const { store, clock } = this.#deps;
    const now = clock.now();
    const [byAddress, byPair, byName] = held.records;
    const [aheadAddress = 0, aheadPair = 0, aheadName = 0] = held.ahead;
    this.#refuseWhileWaiting(now, byAddress, byPair);
    const inFlight = Math.max(
      retryAfterHeldMs(byAddress, aheadAddress, this.#address, now),
      retryAfterHeldMs(byPair, aheadPair, this.#name, now),
    );
    if (inFlight > 0)
      throw this.#throttled(
        new RateLimitedError(inFlight / 1000, 'too many password checks in progress from this address: try again shortly'),
      );
    // The name's delay comes before the check whatever its outcome, so its length tells nothing of the password.
    const delay = nameDelayMs(withInFlight(byName, aheadName, this.#name, now), this.#name, now);
    if (delay > 0) await clock.sleep(delay);
    try {
      const result = await check();
      await Promise.all([store.reset(pairKey(user, address)), store.reset(nameKey(user))]);
      return result;
    } catch (error) {
      if (isKeygateError(error) && error.code === 'WRONG_CREDENTIAL') await this.recordFailedPassword(user, address);
      throw error;
    }
  }

  /** Throws RateLimitedError while the address, or the address for this user name, must wait. */
  async assertAllowed(user: string | undefined, address: string): Promise<void> {
    const keys = user === undefined ? [addressKey(address)] : [addressKey(address), pairKey(user, address)];
    const [byAddress, byPair] = await this.#deps.store.failures(keys);
    this.#refuseWhileWaiting(this.#deps.clock.now(), byAddress, byPair);
  }

  /** Counts one failed password proof (a login, or an own-password change's current password). */
  async recordFailedPassword(user: string | undefined, address: string): Promise<void> {
    const { store, clock, windowMs } = this.#deps;
    const now = clock.now();
    const keys = user === undefined ? [addressKey(address)] : [addressKey(address), pairKey(user, address), nameKey(user)];
    await Promise.all(keys.map((key) => store.fail(key, now, windowMs)));
  }

  /** The opt-in per-address request rate of the unauthenticated login operations. */
  async countRequest(address: string): Promise<void> {
    const rate = this.#deps.ratePerSecond;
    if (rate === undefined) return;
    const now = this.#deps.clock.now();
    const count = await this.#deps.store.hit(`rate:${address}`, now);
    if (count > rate)
      throw this.#throttled(new RateLimitedError((1000 - (now % 1000)) / 1000, 'too many requests from this address: try again later'));
  }

  #refuseWhileWaiting(now: number, byAddress: FailureRecord | undefined, byPair: FailureRecord | undefined): void {
    const wait = Math.max(retryAfterMs(byAddress, this.#address, now), retryAfterMs(byPair, this.#name, now));
    if (wait > 0) throw this.#throttled(new RateLimitedError(wait / 1000));
  }

  #throttled(error: RateLimitedError): RateLimitedError {
    this.#deps.metrics?.loginThrottled();
    return error;
  }
}

const nameKey = (user: string) => `name:${user}`;
const addressKey = (address: string) => `addr:${address}`;
/** The address first: it never holds a `|`, so no two (name, address) pairs share a key. */
const pairKey = (user: string, address: string) => `pair:${address}|${user}`;
