import { KeygateError } from '../errors/keygate-error.js';

/**
 * The audit store cannot take or read records. Operations that change state or release key material
 * are refused while it lasts (fail closed); a list is never answered short or empty instead.
 */
export class AuditUnavailableError extends KeygateError {
  constructor(detail = 'the audit log is unavailable', cause?: unknown) {
    super('AUDIT_UNAVAILABLE', detail, { cause, retryable: true, scope: 'process', retryAfterSeconds: 5 });
  }
}

/** A record id the audit store already holds: records are appended, never overwritten. */
export class AuditRecordExistsError extends KeygateError {
  constructor(id: string) {
    super('CONFLICT', `audit record ${id} already exists`);
  }
}
