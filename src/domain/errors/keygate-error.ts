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

  constructor(code: ErrorCode, detail: string, options: KeygateErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeygateError';
    this.code = code;
    this.retryable = options.retryable;
    this.scope = options.scope;
    this.reason = options.reason;
    this.reauth = options.reauth;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get detail(): string {
    return this.message;
  }
}

export function isKeygateError(value: unknown): value is KeygateError {
  return value instanceof KeygateError;
}
