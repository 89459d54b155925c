import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { undoUnlessRecorded } from '../request-audit.js';
import { callerOf } from './api-context.js';
import { route, type ApiRoute } from './api-route.js';
import { responses } from './api-responses.js';
import { ttagParam } from './api-schemas.js';

const schemas = {
  /** An empty body creates a 16-byte key, as `{}` does. */
  create: z
    .strictObject({
      keyLen: z.union([z.literal(16), z.literal(24), z.literal(32)]).default(16),
      label: z.string().min(1).max(256).optional(),
      expiresAt: z.iso.datetime({ offset: true }).optional(),
    })
    .prefault({}),
  export: z.strictObject({ clientPubKey: z.string().min(1, 'required').max(256) }),
};

/** Key lifecycle (docs/spec.md §4.6). */
export function keyRoutes(services: GatewayServices): ApiRoute[] {
  const keys = services.keys;
  return [
    route({
      operationId: 'keys.create',
      method: 'POST',
      path: '/api/keys',
      auth: 'session',
      summary: 'Create a key owned by the caller (16, 24 or 32 bytes)',
      body: schemas.create,
      success: { status: 201, schema: responses.key },
      async handle(ctx, { body }) {
        const expiresAt = body.expiresAt === undefined ? undefined : Date.parse(body.expiresAt);
        // Once the key server named the key, the record names it, its undo is ready, and a failure
        // from here on points at the read that shows it.
        const made = (ttag: string) => {
          undoUnlessRecorded(ctx, { object: ttag }, () => keys.expire(callerOf(ctx), ttag));
          ctx.state.write = { check: `GET /api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}` };
        };
        const created = await keys.create(callerOf(ctx), { keyLen: body.keyLen, label: body.label, expiresAt }, made);
        ctx.status = 201;
        ctx.body = created;
      },
    }),
    route({
      operationId: 'keys.read',
      method: 'GET',
      path: '/api/keys/:ttag',
      auth: 'session',
      summary: 'The key view (never key material); right read',
      success: { status: 200, schema: responses.key },
      async handle(ctx, { params }) {
        ctx.body = await keys.read(callerOf(ctx), ttagParam(params));
      },
    }),
    route({
      operationId: 'keys.export',
      method: 'POST',
      path: '/api/keys/:ttag/export',
      auth: 'session',
      overlapsAudit: true,
      summary: "Export the key wrapped to the client's ephemeral P-256 key; right export",
      body: schemas.export,
      success: { status: 200, schema: responses.exported },
      async handle(ctx, { body, params, releaseWhenRecorded }) {
        ctx.body = await releaseWhenRecorded!(() => keys.prepareExport(callerOf(ctx), ttagParam(params), body.clientPubKey));
      },
    }),
    route({
      operationId: 'keys.expire',
      method: 'POST',
      path: '/api/keys/:ttag/expire',
      auth: 'session',
      summary: 'Expire the key for good (owner); it then refuses export and cryptography',
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${params.ttag}`,
      async handle(ctx, { params }) {
        ctx.body = await keys.expire(callerOf(ctx), ttagParam(params));
      },
    }),
  ];
}
