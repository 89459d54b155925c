import { z } from 'zod';
import { ttagToPath } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { TAG_NAME, TAG_VALUE_MAX } from '../../../wire/key-tags.js';
import { KEY_STATES } from '../../../wire/key-view.js';
import { KEY_LIST_TAG_FILTERS_MAX, KEYS_LIMIT_MAX, LIST_LIMIT_DEFAULT } from '../../../wire/list-result.js';
import { text } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody, pageQuery } from './api-schemas.js';
import { noteResolved, withoutResolved } from './key-reference.js';

/** A `tag` filter: `name:value` or `name`; the key server checks each part (src/wire/key-tags.ts). */
const tagFilter = text({ min: 1, max: 400 });
const instant = z.iso.datetime({ offset: true });

const schemas = {
  /** docs/spec.md §4.23 item 1: the key list's filters and page. */
  list: z.strictObject({
    q: text({ min: 1, max: 256 }).optional().describe('a label prefix (code units, case-sensitive)'),
    tag: z
      .union([tagFilter, z.array(tagFilter).max(KEY_LIST_TAG_FILTERS_MAX, `at most ${KEY_LIST_TAG_FILTERS_MAX} tag filters`)])
      .optional()
      .describe(`name:value or name, repeatable (at most ${KEY_LIST_TAG_FILTERS_MAX}); every one must match`),
    state: z.enum(KEY_STATES).optional().describe('without it, every state but deleted'),
    owner: text({ min: 1, max: 256 }).optional().describe("the owner's principal name"),
    createdAfter: instant.optional(),
    createdBefore: instant.optional(),
    limit: z.coerce.number().int().min(1).max(KEYS_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    cursor: pageQuery.cursor,
  }),
  tag: z.strictObject({ value: text({ max: TAG_VALUE_MAX }) }),
};

/** A tag's name in the path (docs/spec.md §4.23 item 2), as the document shows it. */
const tagName = z.string().regex(TAG_NAME, 'not a tag name');
const ms = (instant: string | undefined) => (instant === undefined ? undefined : Date.parse(instant));

/** The key list and tags (docs/spec.md §4.23 items 1 and 2). */
export function keyInventoryRoutes(services: GatewayServices): ApiRoute[] {
  const keys = services.keys;
  return [
    route({
      operationId: 'keys.list',
      method: 'GET',
      path: '/api/keys',
      auth: 'session',
      summary: `The keys the caller may use, newest first, filtered, a page at a time (limit 1..${KEYS_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}, opaque cursor)`,
      query: schemas.list,
      success: { status: 200, schema: responses.keys },
      async handle(ctx, { query }) {
        const { tag, createdAfter, createdBefore, ...rest } = query;
        const filters = {
          ...rest,
          ...(tag === undefined ? {} : { tag: typeof tag === 'string' ? [tag] : tag }),
          ...(createdAfter === undefined ? {} : { createdAfter: ms(createdAfter) }),
          ...(createdBefore === undefined ? {} : { createdBefore: ms(createdBefore) }),
        };
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listKeys', filters));
      },
    }),
    route({
      operationId: 'keys.tag',
      method: 'PUT',
      path: '/api/keys/:ttag/tags/:name',
      auth: 'session',
      summary: "Set one of the key's tags, replacing its value (owner or right tag; at most 50 a key)",
      params: { name: tagName },
      body: schemas.tag,
      success: { status: 200, schema: responses.tag },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { body, params, audit }) {
        const set = await keys.tag(callerOf(ctx), params.ttag, params.name, body.value);
        noteResolved(audit, params.ttag, set.resolved);
        ctx.body = withoutResolved(set);
      },
    }),
    route({
      operationId: 'keys.untag',
      method: 'DELETE',
      path: '/api/keys/:ttag/tags/:name',
      auth: 'session',
      summary: "Delete one of the key's tags (owner or right tag); one the key does not carry changes nothing",
      params: { name: tagName },
      success: { status: 204 },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const deleted = await keys.untag(callerOf(ctx), params.ttag, params.name);
        noteResolved(audit, params.ttag, deleted.resolved);
        ctx.status = 204;
      },
    }),
  ];
}
