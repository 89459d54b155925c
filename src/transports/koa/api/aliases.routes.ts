import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { ALIAS_NAME, ALIASES_LIMIT_MAX, aliasOf } from '../../../wire/alias.js';
import { LIST_LIMIT_DEFAULT } from '../../../wire/list-result.js';
import { text } from '../schema/text-schema.js';
import { ttagField } from '../schema/ttag-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody, pageQuery, ttag } from './api-schemas.js';

/** An alias in a path or a prefix (docs/spec.md §4.23 item 3): its rule is the key server's (src/wire/alias.ts). */
const aliasName = z.string().regex(ALIAS_NAME, 'not an alias');

const schemas = {
  /** The key the alias names: a ttag, never an alias (the key server refuses `alias/...` with BAD_REQUEST). */
  put: z.strictObject({ ttag: ttagField(ttag.refine((value) => aliasOf(value) === undefined, 'a ttag, not an alias')) }),
  list: z.strictObject({
    ttag: ttagField(text({ min: 1, max: 512 })).optional(),
    prefix: text({ min: 1, max: 128 }).optional(),
    limit: z.coerce.number().int().min(1).max(ALIASES_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    cursor: pageQuery.cursor,
  }),
};

/** Aliases (docs/spec.md §4.23 item 3): the record names the alias (`alias`) and the key it names (`object`). */
export function aliasRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'aliases.list',
      method: 'GET',
      path: '/api/aliases',
      auth: 'session',
      summary: `Aliases by name, of the keys the caller would see listed, a page at a time (limit 1..${ALIASES_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}, opaque cursor); ttag narrows to one key, prefix to names that begin with it`,
      query: schemas.list,
      success: { status: 200, schema: responses.aliases },
      async handle(ctx, { query }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listAliases', query));
      },
    }),
    route({
      operationId: 'aliases.put',
      method: 'PUT',
      path: '/api/aliases/:alias',
      auth: 'session',
      summary: 'Make the alias name the key (owner of the key, and of the key it named when it moves); at most 50 aliases a key',
      params: { alias: aliasName },
      body: schemas.put,
      success: { status: 200, schema: responses.alias },
      auditObject: ({ body }) => body.ttag,
      outcomeCheck: ({ params }) => `GET /api/aliases?prefix=${params.alias}`,
      async handle(ctx, { body, params }) {
        ctx.body = await services.aliases.put(callerOf(ctx), params.alias, body.ttag);
      },
    }),
    route({
      operationId: 'aliases.delete',
      method: 'DELETE',
      path: '/api/aliases/:alias',
      auth: 'session',
      summary: 'Remove the alias (owner of the key it names)',
      params: { alias: aliasName },
      success: { status: 204 },
      auditObject: () => undefined,
      outcomeCheck: ({ params }) => `GET /api/aliases?prefix=${params.alias}`,
      async handle(ctx, { params, audit }) {
        const removed = await services.aliases.remove(callerOf(ctx), params.alias);
        audit.note({ object: removed.ttag });
        ctx.status = 204;
      },
    }),
  ];
}
