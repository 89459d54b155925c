import { ERROR_CODES } from '../../../domain/errors/error-codes.js';
import { z } from 'zod';
import { API_VERSION } from './api-version.js';
import type { ApiRoute } from './api-route.js';

const errorBody = {
  type: 'object',
  required: ['code', 'detail'],
  properties: {
    code: {
      type: 'string',
      enum: [...ERROR_CODES],
      description: "stable error code; DELEGATION_DENIED (403): the target is not in the service's delegates, or holds admin",
    },
    detail: { type: 'string' },
    retryable: { type: 'boolean' },
    reason: { type: 'string', description: 'why, for CONFLICT: PRINCIPAL_EXISTS (certificate provisioning meets an existing principal), ...' },
    scope: { type: 'string', enum: ['session', 'process'] },
    reauth: { type: 'boolean' },
  },
} as const;

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function parameters(route: ApiRoute): unknown[] {
  const path = [...route.path.matchAll(/:(\w+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (!route.query) return path;
  const query = jsonSchema(route.query) as { properties?: Record<string, unknown>; required?: string[] };
  return [
    ...path,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      schema,
    })),
  ];
}

function operation(route: ApiRoute): Record<string, unknown> {
  const success = route.success.schema
    ? { description: 'success', content: { 'application/json': { schema: jsonSchema(route.success.schema) } } }
    : { description: 'success' };
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.auth === 'session' ? { security: [{ bearer: [] }] } : { security: [] }),
    parameters: parameters(route),
    ...(route.body
      ? { requestBody: { required: !route.body.safeParse(undefined).success, content: { 'application/json': { schema: jsonSchema(route.body) } } } }
      : {}),
    responses: {
      [String(route.success.status)]: success,
      default: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
}

/** The OpenAPI 3.1 document of the /api surface, from the same declarations that mount the routes. */
export function buildOpenApi(routes: readonly ApiRoute[], gatewayVersion: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'keygate /api', version: API_VERSION, 'x-gateway-version': gatewayVersion },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'session id; a bound session also sends a DPoP proof' } },
      schemas: { Error: errorBody },
    },
  };
}
