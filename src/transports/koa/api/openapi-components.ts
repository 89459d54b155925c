import { z } from 'zod';
import { API_ERROR_STATUS } from './api.errors.js';

/** The statuses an error may have on /api, and their names in `components.responses`. */
export const ERROR_RESPONSES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'UnprocessableContent',
  500: 'Internal',
  502: 'KeyServerFailed',
  503: 'Unavailable',
};

const headers = {
  401: {
    'WWW-Authenticate': { description: 'RFC 6750 §3 / RFC 9449 §7.1 challenge; DPoP with algs="ES256 RS256"', schema: { type: 'string' } },
  },
  503: { 'Retry-After': { description: 'seconds, when the scope is session or process (docs/spec.md §6.1)', schema: { type: 'integer' } } },
} as Readonly<Record<number, Record<string, unknown>>>;

/** One error response per status: the error body, its `code` narrowed to the codes of that status. */
export function errorResponses(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, name] of Object.entries(ERROR_RESPONSES)) {
    const codes = Object.entries(API_ERROR_STATUS)
      .filter(([, s]) => s === Number(status))
      .map(([code]) => code);
    out[name] = {
      description: `error ${status}: ${codes.join(', ')}`,
      ...(headers[Number(status)] === undefined ? {} : { headers: headers[Number(status)] }),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
          },
        },
      },
    };
  }
  return out;
}

/** The error statuses of an operation: a session's, or those of a route that needs none. */
export function errorStatuses(auth: 'session' | 'none', operationId: string): number[] {
  if (auth === 'session') return [400, 401, 403, 404, 409, 500, 502, 503];
  const own: Record<string, number[]> = {
    'session.password': [400, 401, 403, 500, 502, 503],
    'session.certificate.challenge': [400, 401, 403, 500, 502, 503],
    'session.certificate': [400, 401, 403, 404, 500, 502, 503],
    'session.logout': [400, 401, 500, 503],
    health: [500],
  };
  return own[operationId] ?? [400, 500, 503];
}

/** docs/spec.md §5.2: the proof a bound session sends with every request. */
export const DPOP_HEADER = {
  name: 'DPoP',
  in: 'header',
  required: false,
  description: 'RFC 9449 proof (compact JWS, ES256 or RS256) with ath and bth; required for a bound session',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', maxLength: 8192 },
};

/** docs/spec.md §4.22 item 7: the IETF httpapi Idempotency-Key of a create or a rotate. */
export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'a retry with the same key and request within 24 h answers the first result and creates nothing; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
};

export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <sessionId>; a bound session also sends a DPoP proof' },
  dpop: { type: 'http', scheme: 'DPoP', description: 'Authorization: DPoP <sessionId> (RFC 9449 §7.1), with the DPoP proof header' },
  xSession: { type: 'apiKey', in: 'header', name: 'X-Session', description: 'the seven operations: the session id (docs/spec.md §2.4)' },
};

export const TAGS = [
  { name: 'sessions', description: 'Password, certificate, scoped and delegated sessions (operations 1-8)' },
  { name: 'crypto', description: 'Data cryptography under the raw key (operations 9-12)' },
  { name: 'keys', description: 'Key lifecycle and wrapped export (operations 13-16)' },
  { name: 'acl', description: 'Key access lists (operations 17-20)' },
  { name: 'principals', description: 'Users, groups and services (operations 21-28)' },
  { name: 'groups', description: 'Group membership (operations 29-31)' },
  { name: 'roles', description: 'Roles: named sets of operation ids (operations 32-34)' },
  { name: 'certificates', description: 'Certificates (operations 35-38)' },
  { name: 'trust', description: 'Trusted authorities and enrollments (operations 39-42)' },
  { name: 'server', description: 'Key-server administration (operations 43-46)' },
  { name: 'policy', description: 'Auto-provisioning policy (operations 47-48)' },
  { name: 'audit', description: 'The audit log (operations 49-50)' },
  { name: 'health', description: 'Health (operation 51)' },
  { name: 'seven operations', description: 'The seven operations at the root of the gateway (docs/spec.md §2)' },
  { name: 'discovery', description: 'This document' },
];

/** The tag of an /api operation, from its id. */
export function tagOf(operationId: string): string {
  const family = operationId.split('.')[0]!;
  return family === 'session' ? 'sessions' : family;
}

/** A zod schema as JSON Schema; shared schemas (`.meta({ id })`) land in `defs` and are referenced. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output', defs: Record<string, unknown>): Record<string, unknown> {
  const {
    $schema: _s,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown> & {
    $defs?: Record<string, unknown>;
  };
  for (const [id, def] of Object.entries($defs ?? {})) defs[id] = relink(def);
  return relink(rest) as Record<string, unknown>;
}

function relink(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
}
