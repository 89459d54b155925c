import type { ErrorCode } from './error-codes.js';

/** How far a retryable failure reaches: this session only, or the whole gateway process. */
export type ErrorScope = 'session' | 'process';

export interface KeygateErrorOptions {
  readonly cause?: unknown;
  readonly retryable?: boolean;
  readonly scope?: ErrorScope;
  readonly reason?: string;
  readonly reauth?: boolean;
  /** Seconds a client should wait before retrying a retryable failure. */
  readonly retryAfterSeconds?: number;
  /**
   * `unknown`: the failure came after the request reached the system that performs it, which may have
   * carried it out. Absent: the failure says the operation did not happen.
   */
  readonly outcome?: 'unknown';
  /** With `outcome`: the read that shows whether the operation took effect. */
  readonly check?: string;
}

/**
 * The one base class of every failure the gateway answers on purpose. It carries a stable `code`
 * from the contracts and a human `detail`; it never carries an HTTP status (each surface maps codes
 * to statuses). `cause` is for logs only: no surface ever puts it in a response.
 */
export class KeygateError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean | undefined;
  readonly scope: ErrorScope | undefined;
  readonly reason: string | undefined;
  readonly reauth: boolean | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly outcome: 'unknown' | undefined;
  readonly check: string | undefined;

  constructor(code: ErrorCode, detail: string, options: KeygateErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeygateError';
    this.code = code;
    this.retryable = options.retryable;
    this.scope = options.scope;
    this.reason = options.reason;
    this.reauth = options.reauth;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.outcome = options.outcome;
    this.check = options.check;
  }

  get detail(): string {
    return this.message;
  }
}

/** The same failure, saying that its operation may have taken effect (and, given, which read shows it). */
export function outcomeUnknown(error: KeygateError, check?: string): KeygateError {
  const { retryable, scope, reason, reauth, retryAfterSeconds } = error;
  const options: KeygateErrorOptions = {
    cause: error.cause ?? error,
    retryable,
    scope,
    reason,
    reauth,
    retryAfterSeconds,
    outcome: 'unknown',
    check,
  };
  return new KeygateError(error.code, error.detail, options);
}

/** The same failure without an outcome (where it has no meaning: a read). */
export function withoutOutcome(error: KeygateError): KeygateError {
  if (error.outcome === undefined) return error;
  const { retryable, scope, reason, reauth, retryAfterSeconds } = error;
  return new KeygateError(error.code, error.detail, { cause: error.cause ?? error, retryable, scope, reason, reauth, retryAfterSeconds });
}

export function isKeygateError(value: unknown): value is KeygateError {
  return value instanceof KeygateError;
}
