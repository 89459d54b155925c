import type { FailureRecord, ThrottlePolicy } from './throttle-policy.js';

/** The delay once a user name's failures (from every address) reach twice its per-address limit. */
export const FIRST_NAME_DELAY_MS = 1_000;
/** The longest delay: what the real user pays at most while the name is being guessed. */
export const MAX_NAME_DELAY_MS = 10_000;

/**
 * How long a password check for a user name waits before it runs, whoever asks: 0 until the name has
 * failed twice `policy.limit` times inside the window (more than one address may fail for it before
 * that address must wait, so reaching it takes guesses from several addresses), then 1 s, doubling
 * with each further failure, never more than 10 s. It never refuses: the right password still gets
 * in, from an address that has not failed, after at most the longest delay. The wait comes before the
 * check whatever the outcome, so its length says nothing about the password.
 */
export function nameDelayMs(record: FailureRecord | undefined, policy: ThrottlePolicy, now: number): number {
  if (!record || now - record.lastAt >= policy.windowMs) return 0;
  const onset = policy.limit * 2;
  if (record.count < onset) return 0;
  return Math.min(FIRST_NAME_DELAY_MS * 2 ** Math.min(record.count - onset, 30), MAX_NAME_DELAY_MS);
}
