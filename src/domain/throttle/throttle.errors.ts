import { KeygateError } from '../errors/keygate-error.js';

/** A throttled login or unauthenticated call (docs/spec.md §10 item 4: 429, Retry-After). */
export class RateLimitedError extends KeygateError {
  override name = 'RateLimitedError';

  constructor(retryAfterSeconds: number, detail = 'too many attempts: try again later') {
    super('RATE_LIMITED', detail, { retryable: true, scope: 'session', retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
  }
}

/** The principal already holds the maximum number of live sessions; nothing is evicted. */
export class SessionLimitError extends KeygateError {
  override name = 'SessionLimitError';

  constructor(limit: number, retryAfterSeconds: number) {
    super('SESSION_LIMIT', `the principal already has ${limit} live sessions: sign out of one first`, {
      retryable: true,
      scope: 'session',
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
    });
  }
}
