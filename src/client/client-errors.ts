/** The /api error body (docs/spec.md §6.1): `code` is the contract, `detail` is for people. */
export interface ApiErrorBody {
  readonly code: string;
  readonly detail: string;
  readonly retryable?: boolean;
  readonly reason?: string;
  readonly scope?: string;
  readonly reauth?: boolean;
}

/** The code given to a failure whose body is not the /api error body (a proxy's page, say). */
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

/**
 * A refusal from the gateway, typed: the HTTP status and the body's fields. A page branches on
 * `code` (never on `detail`); `retryAfterSeconds` comes from `Retry-After` (docs/spec.md §6.1).
 */
export class KeygateApiError extends Error {
  override name = 'KeygateApiError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  declare readonly retryable?: boolean;
  declare readonly reauth?: boolean;
  declare readonly reason?: string;
  declare readonly scope?: string;
  declare readonly retryAfterSeconds?: number;
  /** The gateway's `X-Request-Id`, to quote when reporting a problem. */
  declare readonly requestId?: string;

  constructor(status: number, body: ApiErrorBody, extra: { retryAfterSeconds?: number; requestId?: string } = {}) {
    super(`${body.code}: ${body.detail}`);
    this.status = status;
    this.code = body.code;
    this.detail = body.detail;
    if (body.retryable !== undefined) this.retryable = body.retryable;
    if (body.reauth !== undefined) this.reauth = body.reauth;
    if (body.reason !== undefined) this.reason = body.reason;
    if (body.scope !== undefined) this.scope = body.scope;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds;
    if (extra.requestId !== undefined) this.requestId = extra.requestId;
  }
}

/**
 * A 401 with `reauth: true`: the server-held token is gone (`SESSION_EXPIRED`, docs/spec.md §4.21 item 2). The
 * page acts on it by signing in again and retrying (docs/spec.md §2.4 item 4); it is not an ordinary 401.
 */
export class ReauthRequiredError extends KeygateApiError {
  override name = 'ReauthRequiredError';
}

/** Maps a failed response (status, parsed JSON or undefined, headers) to its typed error. */
export function apiErrorFrom(status: number, body: unknown, headers: Headers): KeygateApiError {
  const fields = isErrorBody(body) ? body : { code: UNEXPECTED_RESPONSE, detail: `HTTP ${status} without an error body` };
  const extra: { retryAfterSeconds?: number; requestId?: string } = {};
  const retryAfter = headers.get('Retry-After');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) extra.retryAfterSeconds = Number(retryAfter.trim());
  const requestId = headers.get('X-Request-Id');
  if (requestId !== null) extra.requestId = requestId;
  if (status === 401 && fields.reauth === true) return new ReauthRequiredError(status, fields, extra);
  return new KeygateApiError(status, fields, extra);
}

function isErrorBody(body: unknown): body is ApiErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { code, detail } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof detail === 'string';
}
