import { z } from 'zod';
import { jsonSchema } from '../api/openapi-components.js';
import type { RootRoute } from './root-route.js';

/** The seven operations' error body (docs/spec.md §2.5). */
const rootError = z.object({ error: z.string(), detail: z.string().optional(), reauth: z.boolean().optional() }).meta({ id: 'RootError' });

/** The `paths` entries of the seven operations, from their declarations, tagged apart from the /api surface. */
export function rootOperations(routes: readonly RootRoute[], defs: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const error = { description: 'error', content: { 'application/json': { schema: jsonSchema(rootError, 'output', defs) } } };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of routes) {
    const responses: Record<string, unknown> = {
      200: { description: 'success', content: { 'application/json': { schema: jsonSchema(op.answer, 'output', defs) } } },
    };
    for (const status of op.errors) responses[String(status)] = error;
    const session = op.auth === 'session';
    paths[op.path] = {
      [op.method.toLowerCase()]: {
        operationId: op.operationId,
        summary: op.summary,
        tags: ['seven operations'],
        security: session ? [{ xSession: [] }] : [],
        parameters: session ? [{ $ref: '#/components/parameters/DPoP' }] : [],
        ...(op.body
          ? {
              requestBody: {
                required: !op.body.safeParse(undefined).success,
                content: { 'application/json': { schema: jsonSchema(op.body, 'input', defs) } },
              },
            }
          : {}),
        responses,
      },
    };
  }
  return paths;
}
