import { z } from 'zod';
import { membershipObject } from '../../../domain/audit/audit.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { GROUPS_LIMIT_MAX, LIST_LIMIT_DEFAULT } from '../../../wire/list-result.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, type RouteInput, route } from './api-route.js';
import { listBody, pageQuery } from './api-schemas.js';

/** docs/spec.md §4.9 item 1: the groups' page takes up to GROUPS_LIMIT_MAX, the cursor as every list. */
const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(GROUPS_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
  cursor: pageQuery.cursor,
});

const memberObject = ({ params }: RouteInput<unknown, unknown>) => membershipObject(params.name ?? '', params.member ?? '');

/** Groups (docs/spec.md §4.9); a group is created under Principals. */
export function groupRoutes(services: GatewayServices): ApiRoute[] {
  const groups = services.groups;
  return [
    route({
      operationId: 'groups.list',
      method: 'GET',
      path: '/api/groups',
      auth: 'session',
      summary: `Groups by name, a page at a time (limit 1..${GROUPS_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}, opaque cursor)`,
      query: listQuery,
      success: { status: 200, schema: responses.principals },
      async handle(ctx, { query }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listGroups', query));
      },
    }),
    route({
      operationId: 'groups.members.list',
      method: 'GET',
      path: '/api/groups/:name/members',
      auth: 'session',
      summary: "A group's members (users and services)",
      success: { status: 200, schema: responses.principals },
      async handle(ctx, { params }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'groupMembers', { group: params.name! }));
      },
    }),
    route({
      operationId: 'groups.members.add',
      method: 'PUT',
      path: '/api/groups/:name/members/:member',
      auth: 'session',
      summary: 'Add a member to a group (admin)',
      success: { status: 204 },
      auditObject: memberObject,
      outcomeCheck: ({ params }) => `GET /api/groups/${params.name}/members`,
      async handle(ctx, { params }) {
        await groups.add(callerOf(ctx), params.name!, params.member!);
        ctx.status = 204;
      },
    }),
    route({
      operationId: 'groups.members.remove',
      method: 'DELETE',
      path: '/api/groups/:name/members/:member',
      auth: 'session',
      summary: 'Remove a member from a group (admin)',
      success: { status: 204 },
      auditObject: memberObject,
      outcomeCheck: ({ params }) => `GET /api/groups/${params.name}/members`,
      async handle(ctx, { params }) {
        await groups.remove(callerOf(ctx), params.name!, params.member!);
        ctx.status = 204;
      },
    }),
  ];
}
