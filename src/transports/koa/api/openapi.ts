import type { z } from 'zod';
import { rootOperations } from '../root/root.openapi.js';
import type { RootRoute } from '../root/root-route.js';
import { errorBody } from './api-responses.js';
import type { ApiRoute } from './api-route.js';
import { pathParameters } from './api-schemas.js';
import { API_VERSION } from './api-version.js';
import {
  DPOP_HEADER,
  ERROR_RESPONSES,
  errorResponses,
  errorStatuses,
  IDEMPOTENCY_KEY_HEADER,
  jsonSchema,
  SECURITY_SCHEMES,
  TAGS,
  tagOf,
} from './openapi-components.js';

type Defs = Record<string, unknown>;

function parameters(route: ApiRoute, defs: Defs): unknown[] {
  const path = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const schema = route.params?.[name!] ?? pathParameters[name!];
    return { name, in: 'path', required: true, schema: schema === undefined ? { type: 'string' } : jsonSchema(schema, 'input', defs) };
  });
  const dpop = route.auth === 'session' || route.operationId === 'session.logout' ? [{ $ref: '#/components/parameters/DPoP' }] : [];
  const header = route.idempotent === true ? [...dpop, { $ref: '#/components/parameters/IdempotencyKey' }] : dpop;
  if (!route.query) return [...path, ...header];
  const query = jsonSchema(route.query, 'input', defs) as { properties?: Record<string, unknown>; required?: string[] };
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    schema,
  }));
  return [...path, ...inQuery, ...header];
}

/** A success response: its JSON body's schema, or none for 204. */
export function successResponse(
  status: number,
  schema: z.ZodType | undefined,
  defs: Defs,
  description = 'success',
): Record<string, unknown> {
  if (status === 204 || schema === undefined) return { description };
  return { description, content: { 'application/json': { schema: jsonSchema(schema, 'output', defs) } } };
}

function operation(route: ApiRoute, defs: Defs): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(route.success.status)]: successResponse(route.success.status, route.success.schema, defs),
  };
  for (const status of route.success.also ?? [])
    responses[String(status)] = successResponse(status, route.success.schema, defs, 'the same body, a check failed');
  const statuses = errorStatuses(route.auth, route.operationId);
  for (const status of route.idempotent === true ? [...statuses, 422] : statuses)
    responses[String(status)] ??= { $ref: `#/components/responses/${ERROR_RESPONSES[status]}` };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [tagOf(route.operationId)],
    security: route.auth === 'session' ? [{ bearer: [] }, { dpop: [] }] : [],
    parameters: parameters(route, defs),
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.safeParse(undefined).success,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input', defs) } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the /api surface and of the seven root operations, from the same
 * declarations (zod schemas) that mount the routes and validate their requests: the /api routes in
 * the table's order, then the seven.
 */
export function buildOpenApi(
  routes: readonly (ApiRoute | RootRoute)[],
  gatewayVersion: string,
  servers: readonly { url: string; description: string }[] = DEFAULT_SERVERS,
): Record<string, unknown> {
  const defs: Defs = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const root: RootRoute[] = [];
  for (const route of routes) {
    if (route.surface === 'root') {
      root.push(route);
      continue;
    }
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] =
      route.openApi === undefined ? operation(route, defs) : { operationId: route.operationId, summary: route.summary, ...route.openApi };
  }
  Object.assign(paths, rootOperations(root, defs));
  const error = jsonSchema(errorBody, 'output', defs);
  return {
    openapi: '3.1.0',
    info: {
      title: 'keygate',
      version: API_VERSION,
      description: 'A REST gateway in front of a key server: the /api surface (51 operations) and the seven operations at the root.',
      'x-gateway-version': gatewayVersion,
    },
    servers,
    tags: TAGS,
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      parameters: { DPoP: DPOP_HEADER, IdempotencyKey: IDEMPOTENCY_KEY_HEADER },
      responses: errorResponses(),
      schemas: { ...defs, Error: defs.Error ?? error },
    },
  };
}

/** In the committed document: the default local gateway. The served one names the URL it was fetched by. */
export const DEFAULT_SERVERS = [
  { url: 'http://127.0.0.1:8080', description: 'the gateway with its default TE_GATEWAY_HOST and TE_GATEWAY_PORT' },
];
