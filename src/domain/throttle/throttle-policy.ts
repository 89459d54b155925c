/**
 * Failed-login throttling (docs/spec.md §10 item 2): after `limit` failures, one
 * attempt per 30 s, the wait doubling with each further failure, never longer than the window.
 */
export interface ThrottlePolicy {
  /** Failures allowed before the waits begin. */
  readonly limit: number;
  /** A key with no failure for this long is forgotten; also the longest wait. */
  readonly windowMs: number;
}

/** The failures of one key (a user name or a client address), as the throttle store keeps them. */
export interface FailureRecord {
  readonly count: number;
  /** When the last failure was recorded (ms since the epoch). */
  readonly lastAt: number;
}

/** The first wait once the limit is reached. */
export const FIRST_WAIT_MS = 30_000;

/** How long after `record.lastAt` the next attempt may come; 0 below the limit. */
export function waitAfterLast(record: FailureRecord, policy: ThrottlePolicy): number {
  if (record.count < policy.limit) return 0;
  const doublings = Math.min(record.count - policy.limit, 30);
  return Math.min(FIRST_WAIT_MS * 2 ** doublings, policy.windowMs);
}

/** How long a client waits when only attempts still in flight stand in its way (`retryAfterHeldMs`). */
export const IN_FLIGHT_WAIT_MS = 1_000;

/**
 * The record as it would be if the `ahead` attempts in flight on the key (held, not yet settled) all
 * failed now: a guess is counted before its check runs, so concurrent guesses cannot all see the
 * count from before any of them.
 */
export function withInFlight(
  record: FailureRecord | undefined,
  ahead: number,
  policy: ThrottlePolicy,
  now: number,
): FailureRecord | undefined {
  if (ahead === 0) return record;
  const live = record && now - record.lastAt < policy.windowMs ? record.count : 0;
  return { count: live + ahead, lastAt: now };
}

/**
 * Milliseconds until one more attempt may begin on a key with `ahead` attempts in flight: the wait of
 * its recorded failures; else, when the attempts in flight would reach the limit, a short wait
 * (`IN_FLIGHT_WAIT_MS`) for them to settle; else 0. At most `limit` attempts are thus ever checked
 * before the waits begin, however many arrive at once.
 */
export function retryAfterHeldMs(record: FailureRecord | undefined, ahead: number, policy: ThrottlePolicy, now: number): number {
  const wait = retryAfterMs(record, policy, now);
  if (wait > 0 || ahead === 0) return wait;
  return retryAfterMs(withInFlight(record, ahead, policy, now), policy, now) > 0 ? IN_FLIGHT_WAIT_MS : 0;
}

/** Milliseconds until the key may try again (0: now). A record idle for the window counts for nothing. */
export function retryAfterMs(record: FailureRecord | undefined, policy: ThrottlePolicy, now: number): number {
  if (!record || now - record.lastAt >= policy.windowMs) return 0;
  return Math.max(0, record.lastAt + waitAfterLast(record, policy) - now);
}
