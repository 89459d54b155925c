import type { ErrorCode } from '../../../domain/errors/error-codes.js';
import type { KeygateError } from '../../../domain/errors/keygate-error.js';
import type { ErrorMapper } from '../http/error-handler.js';

/** The seven operations, as named in a 403 body (`<op> denied or failed`, docs/spec.md §2.5). */
export type RootOperation = 'login' | 'logout' | 'generate' | 'export' | 'grant' | 'revoke' | 'health';

type Shape = 'plain' | 'denied' | 'reauth' | 'internal';
interface Rule {
  readonly status: number;
  readonly shape: Shape;
  /** Fixed `error` text; otherwise the detail is the error. */
  readonly error?: string;
}

/**
 * docs/spec.md §2.5, §6.3: every code the gateway can raise, mapped to the seven-operation status and body. A code
 * missing here is a compile error. The seven-operation surface has no 409: a write that did not take
 * is a key-server operation failure (500); an unknown key or grantee is refused like a denial (403).
 */
const RULES = {
  BAD_REQUEST: { status: 400, shape: 'plain' },
  DECRYPT_FAILED: { status: 400, shape: 'plain' },
  CERTIFICATE_MALFORMED: { status: 400, shape: 'plain' },
  PROOF_MALFORMED: { status: 400, shape: 'plain', error: 'PROOF_MALFORMED' },
  SESSION_REQUIRED: { status: 401, shape: 'plain', error: 'missing X-Session header' },
  SESSION_UNKNOWN: { status: 401, shape: 'plain', error: 'unknown or expired session' },
  SESSION_EXPIRED: { status: 401, shape: 'reauth', error: 'session expired' },
  WRONG_CREDENTIAL: { status: 401, shape: 'plain', error: 'wrong credential' },
  PROOF_MISSING: { status: 401, shape: 'plain', error: 'PROOF_MISSING' },
  PROOF_ALG_NOT_ALLOWED: { status: 401, shape: 'plain', error: 'PROOF_ALG_NOT_ALLOWED' },
  PROOF_KEY_MISMATCH: { status: 401, shape: 'plain', error: 'PROOF_KEY_MISMATCH' },
  PROOF_SIGNATURE_REJECTED: { status: 401, shape: 'plain', error: 'PROOF_SIGNATURE_REJECTED' },
  PROOF_BINDING_MISMATCH: { status: 401, shape: 'plain', error: 'PROOF_BINDING_MISMATCH' },
  PROOF_CLOCK_SKEW: { status: 401, shape: 'plain', error: 'PROOF_CLOCK_SKEW' },
  PROOF_REPLAYED: { status: 401, shape: 'plain', error: 'PROOF_REPLAYED' },
  ROLE_DENIED: { status: 403, shape: 'denied' },
  DELEGATION_DENIED: { status: 403, shape: 'denied' },
  ACL_DENIED: { status: 403, shape: 'denied' },
  CONTEXT_REQUIRED: { status: 403, shape: 'denied' },
  OUT_OF_SCOPE: { status: 403, shape: 'denied' },
  NOT_FOUND: { status: 403, shape: 'denied' },
  KEY_EXPIRED: { status: 403, shape: 'denied' },
  KEY_DISABLED: { status: 403, shape: 'denied' },
  KEY_PENDING_DELETION: { status: 403, shape: 'denied' },
  KEY_DELETED: { status: 403, shape: 'denied' },
  KEY_TYPE_MISMATCH: { status: 403, shape: 'denied' },
  KEY_VERSION_RETIRED: { status: 403, shape: 'denied' },
  KEY_VERSIONS_EXHAUSTED: { status: 403, shape: 'denied' },
  KEY_VERSION_NOT_FOUND: { status: 403, shape: 'denied' },
  IDEMPOTENCY_KEY_REUSED: { status: 400, shape: 'plain' },
  METHOD_NOT_ALLOWED: { status: 404, shape: 'plain' },
  NOT_SAVED: { status: 500, shape: 'plain' },
  NOT_VERIFIED: { status: 500, shape: 'plain' },
  CONFLICT: { status: 500, shape: 'plain' },
  KEY_SERVER_FAILED: { status: 500, shape: 'plain' },
  KEY_SERVER_UNAVAILABLE: { status: 500, shape: 'plain', error: 'key server unavailable' },
  SESSION_STORE_UNAVAILABLE: { status: 500, shape: 'plain', error: 'session store unavailable' },
  AUDIT_UNAVAILABLE: { status: 500, shape: 'plain', error: 'audit log unavailable' },
  LOGIN_FAILED: { status: 502, shape: 'plain', error: 'login failed' },
  RATE_LIMITED: { status: 429, shape: 'plain', error: 'too many attempts' },
  SESSION_LIMIT: { status: 429, shape: 'plain', error: 'too many sessions' },
  PROOF_REPLAY_CACHE_FULL: { status: 503, shape: 'plain', error: 'PROOF_REPLAY_CACHE_FULL' },
  INTERNAL: { status: 500, shape: 'internal', error: 'internal error' },
} as const satisfies Record<ErrorCode, Rule>;

/** docs/spec.md §2.3 item 1: on `/login`, any failure other than the credential or the request is a 502. */
const LOGIN_PASSTHROUGH: ReadonlySet<ErrorCode> = new Set(['BAD_REQUEST', 'WRONG_CREDENTIAL', 'RATE_LIMITED', 'SESSION_LIMIT']);

/** Maps a domain error to the seven-operation body `{ error, detail?, reauth? }`. */
export function rootErrorResponse(error: KeygateError, operation: RootOperation | undefined) {
  const code = operation === 'login' && !LOGIN_PASSTHROUGH.has(error.code) && error.code !== 'INTERNAL' ? 'LOGIN_FAILED' : error.code;
  const rule: Rule = RULES[code];
  const headers = error.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(error.retryAfterSeconds) };
  switch (rule.shape) {
    case 'denied':
      return { status: rule.status, body: { error: `${operation ?? 'operation'} denied or failed`, detail: error.detail }, headers };
    case 'reauth':
      return { status: rule.status, body: { error: rule.error ?? 'session expired', reauth: true, detail: error.detail }, headers };
    case 'internal':
      return { status: rule.status, body: { error: rule.error ?? 'internal error', detail: error.detail }, headers };
    default:
      return {
        status: rule.status,
        body:
          rule.error === undefined || rule.error === error.detail ? { error: error.detail } : { error: rule.error, detail: error.detail },
        headers,
      };
  }
}

/** The seven-operation surface's error mapper; the route names its operation in `ctx.state`. */
export const rootErrorMapper: ErrorMapper = (error, ctx) =>
  rootErrorResponse(error, (ctx.state as { operation?: RootOperation }).operation);
