import { token } from './token.js';

/** Wall-clock time. Every time-dependent decision reads it here, so tests move time by hand. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const CLOCK = token<Clock>('Clock');
