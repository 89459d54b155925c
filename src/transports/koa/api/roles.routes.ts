import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { text } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody } from './api-schemas.js';

const schemas = {
  role: z.strictObject({ operations: z.array(text({ min: 1, max: 128 })).max(256) }),
};

/** Roles (docs/spec.md §4.10): named sets of operation ids. */
export function roleRoutes(services: GatewayServices): ApiRoute[] {
  const roles = services.roles;
  return [
    route({
      operationId: 'roles.list',
      method: 'GET',
      path: '/api/roles',
      auth: 'session',
      summary: 'Every role with its operation ids',
      success: { status: 200, schema: responses.roles },
      async handle(ctx) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listRoles', {}));
      },
    }),
    route({
      operationId: 'roles.read',
      method: 'GET',
      path: '/api/roles/:role',
      auth: 'session',
      summary: 'One role',
      success: { status: 200, schema: responses.role },
      async handle(ctx, { params }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'readRole', { name: params.role! });
      },
    }),
    route({
      operationId: 'roles.put',
      method: 'PUT',
      path: '/api/roles/:role',
      auth: 'session',
      summary: 'Define or redefine a role; an unknown operation id is 400 (admin)',
      body: schemas.role,
      success: { status: 200, schema: responses.role },
      outcomeCheck: ({ params }) => `GET /api/roles/${params.role}`,
      async handle(ctx, { body, params }) {
        ctx.body = await roles.put(callerOf(ctx), params.role!, body.operations);
      },
    }),
  ];
}
