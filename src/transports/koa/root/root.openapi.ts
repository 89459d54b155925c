import { z } from 'zod';
import { jsonSchema } from '../api/openapi-components.js';
import { keyServerDaemons, wrappedExport } from '../api/api-responses.js';
import { exportRequest, generateRequest, grantRequest, loginRequest, revokeRequest } from './root.schema.js';

/** The seven operations' error body (docs/spec.md §2.5). */
const rootError = z.object({ error: z.string(), detail: z.string().optional(), reauth: z.boolean().optional() }).meta({ id: 'RootError' });

interface RootOperation {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly session: boolean;
  readonly body?: z.ZodType;
  readonly answer: z.ZodType;
  readonly errors: readonly number[];
}

const ok = z.object({ ok: z.literal(true) });

/** The grant response: the grantee's resolved identity (docs/spec.md §2.2). */
const grantee = z.object({ user: z.string(), systemId: z.number().int(), principalId: z.string().regex(/^[0-9a-f]{16}$/) });

/** The seven operations (docs/spec.md §2.1, §2.2), each with its request and its answer. */
const OPERATIONS: readonly RootOperation[] = [
  {
    method: 'post',
    path: '/login',
    operationId: 'root.login',
    summary: 'Password login: an X-Session id for the other operations',
    session: false,
    body: loginRequest,
    answer: z.object({ sessionId: z.string(), user: z.string(), systemId: z.number().int(), principalId: z.string(), hasToken: z.literal(true) }),
    errors: [400, 401, 502],
  },
  { method: 'post', path: '/logout', operationId: 'root.logout', summary: 'End the session', session: true, answer: ok, errors: [401, 500] },
  {
    method: 'post',
    path: '/keys',
    operationId: 'root.keys.generate',
    summary: 'Generate a 16-byte key owned by the caller',
    session: true,
    body: generateRequest,
    answer: z.object({ ttag: z.string().describe('standard base64') }),
    errors: [400, 401, 403, 500],
  },
  {
    method: 'post',
    path: '/keys/export',
    operationId: 'root.keys.export',
    summary: "Export a key wrapped to the client's ephemeral P-256 key",
    session: true,
    body: exportRequest,
    answer: wrappedExport,
    errors: [400, 401, 403, 500],
  },
  {
    method: 'post',
    path: '/keys/grant',
    operationId: 'root.keys.grant',
    summary: 'Give a user export access to a key (owner)',
    session: true,
    body: grantRequest,
    answer: z.object({ ok: z.literal(true), grantee }),
    errors: [400, 401, 403, 500],
  },
  {
    method: 'post',
    path: '/keys/revoke',
    operationId: 'root.keys.revoke',
    summary: "Take a user's access to a key away (owner)",
    session: true,
    body: revokeRequest,
    answer: ok,
    errors: [400, 401, 403, 500],
  },
  {
    method: 'get',
    path: '/health',
    operationId: 'root.health',
    summary: 'Liveness, the key-server fingerprint and the live session count',
    session: false,
    answer: z.object({ ok: z.boolean(), ksFingerprint: z.string(), sessions: z.number().int(), keyServers: keyServerDaemons }),
    errors: [500],
  },
];

/** The `paths` entries of the seven operations, tagged apart from the /api surface. */
export function rootOperations(defs: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const error = { description: 'error', content: { 'application/json': { schema: jsonSchema(rootError, 'output', defs) } } };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: { 'application/json': { schema: jsonSchema(op.answer, 'output', defs) } } },
    };
    for (const status of op.errors) responses[String(status)] = error;
    paths[op.path] = {
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        tags: ['seven operations'],
        security: op.session ? [{ xSession: [] }] : [],
        parameters: op.session ? [{ $ref: '#/components/parameters/DPoP' }] : [],
        ...(op.body
          ? {
              requestBody: { required: !op.body.safeParse(undefined).success, content: { 'application/json': { schema: jsonSchema(op.body, 'input', defs) } } },
            }
          : {}),
        responses,
      },
    };
  }
  return paths;
}
