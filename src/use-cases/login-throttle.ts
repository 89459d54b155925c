import { isKeygateError } from '../domain/errors/index.js';
import { RateLimitedError } from '../domain/throttle/throttle.errors.js';
import { retryAfterMs, type ThrottlePolicy } from '../domain/throttle/throttle-policy.js';
import type { Clock } from '../ports/clock.port.js';
import type { Metrics } from '../ports/metrics.port.js';
import type { ThrottleStore } from '../ports/throttle-store.port.js';

export interface LoginThrottleDeps {
  readonly store: ThrottleStore;
  readonly clock: Clock;
  /** Failures per user name before the waits begin (TE_GATEWAY_THROTTLE_NAME_FAILURES). */
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
 * Failed-login throttling per user name and per client address, and the opt-in request rate per
 * address (issue 13 §1, api-surface.md "Passwords and throttling"). Password login runs through
 * `guardPassword`; the own-password change proves `currentPassword` the same way and reports through
 * `guardPassword` too (a wrong current password counts as a failed login).
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
   * Runs one password check for `user` from `address`: refused with RATE_LIMITED while either is
   * waiting; a WRONG_CREDENTIAL outcome counts a failure for both; a success forgets the name's.
   */
  async guardPassword<T>(user: string, address: string, check: () => Promise<T>): Promise<T> {
    await this.assertAllowed(user, address);
    try {
      const result = await check();
      await this.#deps.store.reset(nameKey(user));
      return result;
    } catch (error) {
      if (isKeygateError(error) && error.code === 'WRONG_CREDENTIAL') await this.recordFailedPassword(user, address);
      throw error;
    }
  }

  /** Throws RateLimitedError while the name or the address must wait. */
  async assertAllowed(user: string | undefined, address: string): Promise<void> {
    const now = this.#deps.clock.now();
    const keys = user === undefined ? [addressKey(address)] : [addressKey(address), nameKey(user)];
    const [byAddress, byName] = await this.#deps.store.failures(keys);
    const wait = Math.max(retryAfterMs(byAddress, this.#address, now), user === undefined ? 0 : retryAfterMs(byName, this.#name, now));
    if (wait > 0) throw this.#throttled(new RateLimitedError(wait / 1000));
  }

  /** Counts one failed password proof (a login, or an own-password change's current password). */
  async recordFailedPassword(user: string | undefined, address: string): Promise<void> {
    const { store, clock, windowMs } = this.#deps;
    const now = clock.now();
    await Promise.all([store.fail(addressKey(address), now, windowMs), user === undefined ? undefined : store.fail(nameKey(user), now, windowMs)]);
  }

  /** The opt-in per-address request rate of the unauthenticated login operations. */
  async countRequest(address: string): Promise<void> {
    const rate = this.#deps.ratePerSecond;
    if (rate === undefined) return;
    const now = this.#deps.clock.now();
    const count = await this.#deps.store.hit(`rate:${address}`, now);
    if (count > rate) throw this.#throttled(new RateLimitedError((1000 - (now % 1000)) / 1000, 'too many requests from this address: try again later'));
  }

  #throttled(error: RateLimitedError): RateLimitedError {
    this.#deps.metrics?.loginThrottled();
    return error;
  }
}

const nameKey = (user: string) => `name:${user}`;
const addressKey = (address: string) => `addr:${address}`;
