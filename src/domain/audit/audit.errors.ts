import { KeygateError } from '../errors/keygate-error.js';

/**
 * The audit store cannot take or read records. Operations that change state or release key material
 * are refused while it lasts (fail closed); a list is never answered short or empty instead.
 */
export class AuditUnavailableError extends KeygateError {
  override name = 'AuditUnavailableError';

  constructor(detail = 'the audit log is unavailable', cause?: unknown, reason?: string) {
    super('AUDIT_UNAVAILABLE', detail, {
      cause,
      retryable: true,
      scope: 'process',
      retryAfterSeconds: 5,
      ...(reason === undefined ? {} : { reason }),
    });
  }
}

/** A record id the audit store already holds: records are appended, never overwritten. */
export class AuditRecordExistsError extends KeygateError {
  override name = 'AuditRecordExistsError';

  constructor(id: string) {
    super('CONFLICT', `audit record ${id} already exists`);
  }
}

/**
 * The store holds a chain head older than the one this writer last committed (or than its witness
 * holds): entries were deleted behind its back. The writer refuses to extend the shorter chain, since
 * that would make the loss verify clean; every write fails closed until an operator has looked.
 */
export class AuditChainRegressedError extends AuditUnavailableError {
  static readonly REASON = 'the audit chain regressed: the store holds an older head than this gateway last wrote';

  /** The seq of the store's last entry of this writer, and the seq this writer had reached (or its witness saw). */
  readonly at: { readonly storedSeq: number; readonly reachedSeq: number } | undefined;

  constructor(detail: string, at?: { readonly storedSeq: number; readonly reachedSeq: number }) {
    super(`audit chain regressed: ${detail}`, undefined, AuditChainRegressedError.REASON);
    this.name = 'AuditChainRegressedError';
    this.at = at;
  }
}
