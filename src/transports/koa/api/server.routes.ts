import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { SERVER_PARAMETER_NAMES } from '../../../wire/server.js';
import { text } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody } from './api-schemas.js';
import { API_VERSION } from './api-version.js';

const schemas = {
  value: z.strictObject({ value: z.union([z.number(), z.boolean(), text({ max: 1024 })]) }),
};

/** Server administration (docs/spec.md §4.13). */
export function serverRoutes(services: GatewayServices): ApiRoute[] {
  const server = services.server;
  return [
    route({
      operationId: 'server.version',
      method: 'GET',
      path: '/api/server/version',
      auth: 'session',
      summary: 'Versions of the key server, the gateway and the API',
      success: { status: 200, schema: responses.version },
      async handle(ctx) {
        ctx.body = { ...(await server.version(callerOf(ctx))), api: API_VERSION };
      },
    }),
    route({
      operationId: 'server.config',
      method: 'GET',
      path: '/api/server/config',
      auth: 'session',
      summary: 'The key-server configuration, secrets redacted',
      success: { status: 200, schema: responses.config },
      async handle(ctx) {
        ctx.body = await server.config(callerOf(ctx));
      },
    }),
    route({
      operationId: 'server.parameters.list',
      method: 'GET',
      path: '/api/server/parameters',
      auth: 'session',
      summary: 'The key-server parameters: name, value, type, description',
      success: { status: 200, schema: responses.parameters },
      async handle(ctx) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listParameters', {}));
      },
    }),
    route({
      operationId: 'server.parameters.put',
      method: 'PUT',
      path: '/api/server/parameters/:name',
      auth: 'session',
      summary: 'Set one parameter; unknown name 404, wrong type 400',
      params: { name: z.enum(SERVER_PARAMETER_NAMES) },
      body: schemas.value,
      success: { status: 200, schema: responses.parameter },
      async handle(ctx, { body, params }) {
        ctx.body = await server.setParameter(callerOf(ctx), params.name!, body.value);
      },
    }),
  ];
}
