import type { ErrorCode } from '../../../domain/errors/error-codes.js';
import type { KeygateError } from '../../../domain/errors/keygate-error.js';
import type { ErrorMapper, ErrorResponse } from '../http/error-handler.js';
import { wwwAuthenticate } from './www-authenticate.js';

/**
 * docs/spec.md §6.3 (and §5.3 for the proof refusals): the status of every
 * code on the /api surface. A code missing here is a compile error.
 */
export const API_ERROR_STATUS = {
  BAD_REQUEST: 400,
  PROOF_MALFORMED: 400,
  DECRYPT_FAILED: 400,
  CERTIFICATE_MALFORMED: 400,
  SESSION_REQUIRED: 401,
  SESSION_UNKNOWN: 401,
  SESSION_EXPIRED: 401,
  WRONG_CREDENTIAL: 401,
  PROOF_MISSING: 401,
  PROOF_ALG_NOT_ALLOWED: 401,
  PROOF_KEY_MISMATCH: 401,
  PROOF_SIGNATURE_REJECTED: 401,
  PROOF_BINDING_MISMATCH: 401,
  PROOF_CLOCK_SKEW: 401,
  PROOF_REPLAYED: 401,
  ROLE_DENIED: 403,
  DELEGATION_DENIED: 403,
  ACL_DENIED: 403,
  CONTEXT_REQUIRED: 403,
  OUT_OF_SCOPE: 403,
  NOT_FOUND: 404,
  KEY_VERSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_SAVED: 409,
  NOT_VERIFIED: 409,
  CONFLICT: 409,
  KEY_EXPIRED: 409,
  KEY_DISABLED: 409,
  KEY_PENDING_DELETION: 409,
  KEY_DELETED: 409,
  KEY_TYPE_MISMATCH: 409,
  KEY_VERSION_RETIRED: 409,
  KEY_VERSIONS_EXHAUSTED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  SESSION_LIMIT: 429,
  INTERNAL: 500,
  KEY_SERVER_FAILED: 502,
  LOGIN_FAILED: 502,
  KEY_SERVER_UNAVAILABLE: 503,
  SESSION_STORE_UNAVAILABLE: 503,
  AUDIT_UNAVAILABLE: 503,
  PROOF_REPLAY_CACHE_FULL: 503,
} as const satisfies Record<ErrorCode, number>;

/**
 * The /api body: `{ code, detail, retryable?, reason?, scope?, reauth?, outcome?, check? }` (docs/spec.md §6.1).
 * `outcome: "unknown"`: the write may have taken effect, `check` names the read that shows
 * it; a failure without `outcome` did not change anything.
 */
export function apiErrorResponse(error: KeygateError, headers: Record<string, string> = {}): ErrorResponse {
  const status = API_ERROR_STATUS[error.code];
  const body: Record<string, unknown> = { code: error.code, detail: error.detail };
  if (error.retryable !== undefined) body.retryable = error.retryable;
  if (error.reason !== undefined) body.reason = error.reason;
  if (error.scope !== undefined) body.scope = error.scope;
  if (error.reauth !== undefined) body.reauth = error.reauth;
  if (error.outcome !== undefined) body.outcome = error.outcome;
  if (error.check !== undefined) body.check = error.check;
  const out: Record<string, string> = { ...headers };
  // docs/spec.md §6.1: a 503 whose scope is session or process carries Retry-After.
  // docs/spec.md §6.1: a 429 carries Retry-After too.
  if (status === 429 || (status === 503 && (error.scope === 'session' || error.scope === 'process'))) {
    out['Retry-After'] = String(error.retryAfterSeconds ?? 1);
  }
  return { status, body, headers: out };
}

export const apiErrorMapper: ErrorMapper = (error, ctx) => {
  const allow = (ctx.state as { allow?: string }).allow;
  const headers: Record<string, string> = allow === undefined ? {} : { Allow: allow };
  if (API_ERROR_STATUS[error.code] === 401) headers['WWW-Authenticate'] = wwwAuthenticate(error, ctx);
  return apiErrorResponse(error, headers);
};
