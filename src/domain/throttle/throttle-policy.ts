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

/** Milliseconds until the key may try again (0: now). A record idle for the window counts for nothing. */
export function retryAfterMs(record: FailureRecord | undefined, policy: ThrottlePolicy, now: number): number {
  if (!record || now - record.lastAt >= policy.windowMs) return 0;
  return Math.max(0, record.lastAt + waitAfterLast(record, policy) - now);
}
