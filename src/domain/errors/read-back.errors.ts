import { KeygateError } from './keygate-error.js';

/** A write the read-back did not find, or found unchanged (docs/spec.md §4.1 item 3). */
export class NotSavedError extends KeygateError {
  override name = 'NotSavedError';

  constructor(detail: string) {
    super('NOT_SAVED', detail);
  }
}

/** A write the read-back found different from what was asked (docs/spec.md §4.1 item 3). */
export class NotVerifiedError extends KeygateError {
  override name = 'NotVerifiedError';

  constructor(detail: string) {
    super('NOT_VERIFIED', detail);
  }
}

/**
 * A verified write the read-back found overtaken: it took effect, and a later write by another writer
 * changed the object since (docs/spec.md §4.1 item 3: 409 CONFLICT, reason CONCURRENT_CHANGE).
 */
export class ConcurrentChangeError extends KeygateError {
  override name = 'ConcurrentChangeError';

  constructor(detail: string) {
    super('CONFLICT', detail, { reason: 'CONCURRENT_CHANGE' });
  }
}
