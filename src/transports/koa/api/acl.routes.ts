import { z } from 'zod';
import { aclEntryObject } from '../../../domain/audit/audit.js';
import { ttagToPath } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { RIGHTS } from '../../../wire/acl.js';
import { grantConditions } from '../../../wire/grant-conditions.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, type RouteInput, route } from './api-route.js';
import { noteResolved } from './key-reference.js';

const schemas = {
  // docs/spec.md §4.5b item 4: `conditions` is `{ context }`, 1..16 members under the context rules.
  entry: z.strictObject({ rights: z.array(z.enum(RIGHTS)).min(1, 'at least one right'), conditions: grantConditions.optional() }),
};

/** An ACL change is recorded as the root surface records a grant: the key and the grantee. */
const entryObject = ({ params }: RouteInput<unknown, unknown, '/api/keys/:ttag/acl/:principal'>) =>
  aclEntryObject(params.ttag, params.principal);

/** Key ACLs (docs/spec.md §4.7). Entries name principals by name. */
export function aclRoutes(services: GatewayServices): ApiRoute[] {
  const acl = services.acl;
  return [
    route({
      operationId: 'acl.read',
      method: 'GET',
      path: '/api/keys/:ttag/acl',
      auth: 'session',
      summary: "The key's access list (owner)",
      success: { status: 200, schema: responses.acl },
      async handle(ctx, { params, audit }) {
        const read = await services.keyServerCalls.call(callerOf(ctx), 'readAcl', { ttag: params.ttag });
        noteResolved(audit, params.ttag, read.resolved);
        ctx.body = {
          owner: read.owner,
          items: read.entries.map((e) => ({
            principal: e.principal.user,
            rights: e.rights,
            ...(e.conditions === undefined ? {} : { conditions: e.conditions }),
          })),
          complete: true,
        };
      },
    }),
    route({
      operationId: 'acl.put',
      method: 'PUT',
      path: '/api/keys/:ttag/acl/:principal',
      auth: 'session',
      summary: "Set (replace) a principal's rights on the key (owner)",
      body: schemas.entry,
      success: { status: 200, schema: responses.aclEntry },
      auditObject: entryObject,
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}/acl`,
      async handle(ctx, { body, params, audit }) {
        const entry = await acl.grant(callerOf(ctx), params.ttag, params.principal!, body.rights, 'conflict', body.conditions);
        noteResolved(audit, params.ttag, entry.resolved, (ttag) => aclEntryObject(ttag, params.principal));
        ctx.body = {
          principal: entry.principal.user,
          rights: entry.rights,
          ...(entry.conditions === undefined ? {} : { conditions: entry.conditions }),
        };
      },
    }),
    route({
      operationId: 'acl.delete',
      method: 'DELETE',
      path: '/api/keys/:ttag/acl/:principal',
      auth: 'session',
      summary: "Remove a principal's entry from the key's ACL (owner)",
      success: { status: 204 },
      auditObject: entryObject,
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}/acl`,
      async handle(ctx, { params, audit }) {
        const revoked = await acl.revoke(callerOf(ctx), params.ttag, params.principal!);
        noteResolved(audit, params.ttag, revoked.resolved, (ttag) => aclEntryObject(ttag, params.principal));
        ctx.status = 204;
      },
    }),
    route({
      operationId: 'acl.access',
      method: 'GET',
      path: '/api/keys/:ttag/access',
      auth: 'session',
      summary: "The caller's effective rights on the key (own entry, groups' entries, ownership), and its conditioned entries",
      success: { status: 200, schema: responses.access },
      async handle(ctx, { params, audit }) {
        const access = await services.keyServerCalls.call(callerOf(ctx), 'accessRights', { ttag: params.ttag });
        // The rights alone, or an object with the ttag an alias resolved to and the conditioned entries
        // (docs/spec.md §4.5b item 4; src/wire/keyserver-operations.ts).
        if ('rights' in access && access.resolved !== undefined) noteResolved(audit, params.ttag, access.resolved);
        const conditional = 'rights' in access ? access.conditional : undefined;
        ctx.body = { rights: 'rights' in access ? access.rights : access, ...(conditional === undefined ? {} : { conditional }) };
      },
    }),
  ];
}
