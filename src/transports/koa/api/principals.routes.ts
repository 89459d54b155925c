import { z } from 'zod';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { PRINCIPAL_KINDS } from '../../../wire/principal.js';
import { text, textJson } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody, name, pageQuery } from './api-schemas.js';

const kind = z.enum(PRINCIPAL_KINDS as ['user', 'group', 'service']);
const displayName = text({ min: 1, max: 256 });
const roles = z.array(name).max(64);
const password = text({ min: 8, minMessage: 'at least 8 characters', max: 4096 });

const schemas = {
  list: z.strictObject({ kind: kind.optional(), ...pageQuery }),
  create: z.strictObject({ name, kind, displayName: displayName.optional(), password: password.optional(), roles: roles.optional() }),
  update: z
    .strictObject({
      displayName: displayName.optional(),
      disabled: z.boolean().optional(),
      roles: roles.optional(),
      delegates: roles.optional(),
    })
    .refine((body) => Object.keys(body).length > 0, 'nothing to change'),
  password: z.strictObject({ currentPassword: text({ min: 1, max: 4096 }).optional(), password }),
  senderKey: z.strictObject({ jwk: textJson(z.record(z.string(), z.unknown())) }),
};

/** Principals (docs/spec.md §4.8). */
export function principalRoutes(services: GatewayServices): ApiRoute[] {
  const principals = services.principals;
  return [
    route({
      operationId: 'principals.list',
      method: 'GET',
      path: '/api/principals',
      auth: 'session',
      summary: 'Principals by name, a page at a time (limit 1..500, opaque cursor)',
      query: schemas.list,
      success: { status: 200, schema: responses.principals },
      async handle(ctx, { query }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listPrincipals', query));
      },
    }),
    route({
      operationId: 'principals.create',
      method: 'POST',
      path: '/api/principals',
      auth: 'session',
      summary: 'Create a user, group or service (admin)',
      body: schemas.create,
      success: { status: 201, schema: responses.principal },
      auditObject: ({ body }) => body.name,
      outcomeCheck: ({ body }) => `GET /api/principals/${body.name}`,
      async handle(ctx, { body }) {
        const { password: secret, ...fields } = body;
        ctx.status = 201;
        ctx.body = await principals.create(callerOf(ctx), { ...fields, password: secret === undefined ? undefined : new Secret(secret) });
      },
    }),
    route({
      operationId: 'principals.read',
      method: 'GET',
      path: '/api/principals/:name',
      auth: 'session',
      summary: 'One principal (admin, auditor, or the principal itself)',
      success: { status: 200, schema: responses.principal },
      async handle(ctx, { params }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'readPrincipal', { name: params.name! });
      },
    }),
    route({
      operationId: 'principals.update',
      method: 'PUT',
      path: '/api/principals/:name',
      auth: 'session',
      summary: "Change displayName, disabled, roles or a service's delegates; only the fields given change (admin)",
      body: schemas.update,
      success: { status: 200, schema: responses.principal },
      outcomeCheck: ({ params }) => `GET /api/principals/${params.name}`,
      async handle(ctx, { body, params }) {
        ctx.body = await principals.update(callerOf(ctx), params.name!, body);
      },
    }),
    route({
      operationId: 'principals.delete',
      method: 'DELETE',
      path: '/api/principals/:name',
      auth: 'session',
      summary: 'Delete a principal and end its key-server tokens (admin)',
      success: { status: 204 },
      outcomeCheck: ({ params }) => `GET /api/principals/${params.name}`,
      async handle(ctx, { params }) {
        await principals.remove(callerOf(ctx), params.name!);
        ctx.status = 204;
      },
    }),
    route({
      operationId: 'principals.password',
      method: 'PUT',
      path: '/api/principals/:name/password',
      auth: 'session',
      summary: "Set a password: your own with currentPassword (proven by SRP), anyone else's as admin; other sessions end",
      body: schemas.password,
      success: { status: 204 },
      outcomeCheck: ({ params }) => `GET /api/principals/${params.name}`,
      async handle(ctx, { body, params }) {
        const current = body.currentPassword === undefined ? undefined : new Secret(body.currentPassword);
        await principals.setPassword(callerOf(ctx), params.name!, new Secret(body.password), current, ctx.state.clientKey);
        ctx.status = 204;
      },
    }),
    route({
      operationId: 'principals.groups',
      method: 'GET',
      path: '/api/principals/:name/groups',
      auth: 'session',
      summary: 'The groups a principal belongs to',
      success: { status: 200, schema: responses.principals },
      async handle(ctx, { params }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'principalGroups', { name: params.name! }));
      },
    }),
    route({
      operationId: 'principals.senderKey.put',
      method: 'PUT',
      path: '/api/principals/:name/sender-key',
      auth: 'session',
      summary: "Register a principal's sender key (public RSA or EC P-256)",
      body: schemas.senderKey,
      success: { status: 200, schema: responses.senderKey },
      outcomeCheck: ({ params }) => `GET /api/principals/${params.name}`,
      async handle(ctx, { body, params }) {
        ctx.body = await principals.putSenderKey(callerOf(ctx), params.name!, body.jwk);
      },
    }),
  ];
}
