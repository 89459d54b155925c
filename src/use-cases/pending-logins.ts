import { RateLimitedError } from '../domain/throttle/throttle.errors.js';
import type { Clock } from '../ports/clock.port.js';

/** Outstanding certificate challenges one client address may hold (docs/spec.md §4.19 item 1). */
export const MAX_PENDING_CHALLENGES_PER_ADDRESS = 16;
/** Outstanding challenges through this gateway in all: below the key server's own table (10 000). */
export const MAX_PENDING_CHALLENGES = 5_000;
/** The longest a place held for a challenge being checked counts, should its check never end. */
const CHECK_HOLD_MS = 60_000;
/** Password logins one address may have in flight (each holds an SRP entry at a daemon). */
export const MAX_LOGINS_IN_FLIGHT_PER_ADDRESS = 8;

/**
 * Caps what one client address may hold in the key server's pending tables (docs/spec.md §4.19 item 1): the
 * certificate challenges it was issued and has not answered (until they expire), and its password
 * logins in flight. The key server's own totals still apply; these keep one caller from filling them.
 */
export class PendingLogins {
  readonly #clock: Clock;
  /** address -> challengeId -> expiresAt */
  readonly #challenges = new Map<string, Map<string, number>>();
  #challengeCount = 0;
  #places = 0;
  readonly #inFlight = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Refuses a new challenge for `address` at either cap; `issue` runs only when there is room. The
   * request holds its place from before `issue` runs (the key server's path check is the costly part),
   * so challenges being checked count against the address as the issued ones do.
   */
  async challenge<T extends { challengeId: string; expiresAt: number }>(address: string, issue: () => Promise<T>): Promise<T> {
    const now = this.#clock.now();
    if (this.#challengeCount >= MAX_PENDING_CHALLENGES) this.#sweepAll(now);
    const held = this.#live(address, now);
    if (held.size >= MAX_PENDING_CHALLENGES_PER_ADDRESS || this.#challengeCount >= MAX_PENDING_CHALLENGES) {
      const earliest = Math.min(...held.values(), now + 1000);
      throw new RateLimitedError((earliest - now) / 1000, 'too many certificate logins in progress from this address');
    }
    this.#places += 1;
    const place = `checking:${this.#places}`;
    held.set(place, now + CHECK_HOLD_MS);
    this.#challenges.set(address, held);
    this.#challengeCount += 1;
    try {
      const issued = await issue();
      const current = this.#challenges.get(address) ?? new Map<string, number>();
      current.set(issued.challengeId, issued.expiresAt);
      this.#challenges.set(address, current);
      this.#challengeCount += 1;
      return issued;
    } finally {
      this.answered(address, place);
    }
  }

  /** The challenge was answered (whatever the outcome): it no longer counts. */
  answered(address: string, challengeId: string): void {
    const held = this.#challenges.get(address);
    if (held?.delete(challengeId)) this.#challengeCount -= 1;
    if (held?.size === 0) this.#challenges.delete(address);
  }

  /** Runs one password login for `address`, refused while the address has too many in flight. */
  async login<T>(address: string, run: () => Promise<T>): Promise<T> {
    const current = this.#inFlight.get(address) ?? 0;
    if (current >= MAX_LOGINS_IN_FLIGHT_PER_ADDRESS) throw new RateLimitedError(1, 'too many logins in progress from this address');
    this.#inFlight.set(address, current + 1);
    try {
      return await run();
    } finally {
      const left = (this.#inFlight.get(address) ?? 1) - 1;
      if (left === 0) this.#inFlight.delete(address);
      else this.#inFlight.set(address, left);
    }
  }

  /** At the total cap only: drops every expired challenge, of addresses that never came back too. */
  #sweepAll(now: number): void {
    for (const address of [...this.#challenges.keys()]) {
      if (this.#live(address, now).size === 0) this.#challenges.delete(address);
    }
  }

  #live(address: string, now: number): Map<string, number> {
    const held = this.#challenges.get(address) ?? new Map<string, number>();
    for (const [id, expiresAt] of held) {
      if (expiresAt <= now) {
        held.delete(id);
        this.#challengeCount -= 1;
      }
    }
    return held;
  }
}
