import { token } from './token.js';

/** Wall-clock time. Every time-dependent decision reads it here, so tests move time by hand. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The gateway's clock, which can also wait (a login's delay): the same time, moved the same way in tests. */
export interface Timer extends Clock {
  /**
   * Resolves once `milliseconds` have passed on this clock (never rejects). A manual clock resolves
   * it when moved past that point, so a test lets a wait pass without sleeping.
   */
  sleep(milliseconds: number, options?: SleepOptions): Promise<void>;
}

/** How a wait is meant. */
export interface SleepOptions {
  /**
   * A periodic task's wait between rounds (a sweep, the destruction records), not a request's: a manual
   * clock's `nextWake` leaves it out, so a test measuring what a request waited never counts it.
   */
  readonly background?: boolean;
}

export const CLOCK = token<Timer>('Clock');
