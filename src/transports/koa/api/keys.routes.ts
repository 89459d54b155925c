import { z } from 'zod';
import { idempotencyClaim, parseIdempotencyKey } from '../../../domain/idempotency/idempotency-claim.js';
import { ttagToPath } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { IdempotencyClaim } from '../../../wire/crypto-messages.js';
import { MIN_ROTATION_PERIOD_MS, parseIsoDuration } from '../../../wire/iso-duration.js';
import {
  ALGS_OF_TYPE,
  algFits,
  isSigningType,
  JWT_MAX_LIFETIME,
  KEY_TYPES,
  type KeyType,
  SIGNING_ALGS,
  type SigningAlg,
} from '../../../wire/key-type.js';
import { text } from '../schema/text-schema.js';
import { type ApiContext, callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { CLIENT_PUB_KEY_MAX_CHARS, keyVersion, listBody } from './api-schemas.js';
import { noteResolved, withoutResolved } from './key-reference.js';

/** docs/spec.md §4.22 item 6: weeks, days, hours, minutes and seconds, at least one day. */
const rotationPeriod = text({ max: 64 }).refine(
  (text) => (parseIsoDuration(text) ?? 0) >= MIN_ROTATION_PERIOD_MS,
  'an ISO 8601 duration of at least one day (P90D, P1W, PT36H)',
);

/** docs/spec.md §4.25 item 1: `keyLen` for an `aes` key only; `alg`, `exportable: false`, `jwtMaxLifetime` and an `alg` the type fits for a signing key only. */
function fitsItsType(
  body: {
    type: KeyType;
    keyLen?: number | undefined;
    alg?: SigningAlg | undefined;
    exportable?: boolean | undefined;
    jwtMaxLifetime?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const refuse = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (!isSigningType(body.type)) {
    if (body.alg !== undefined) refuse('alg', 'only a signing key has one');
    if (body.exportable === false) refuse('exportable', 'an aes key is exported under the export right');
    if (body.jwtMaxLifetime !== undefined) refuse('jwtMaxLifetime', 'only a signing key signs JWTs');
    return;
  }
  if (body.keyLen !== undefined) refuse('keyLen', `a ${body.type} key has no keyLen`);
  if (body.alg !== undefined && !algFits(body.type, body.alg))
    refuse('alg', `a ${body.type} key signs with ${ALGS_OF_TYPE[body.type].join(', ')}`);
}

const schemas = {
  /** An empty body creates a 16-byte key, as `{}` does. */
  create: z
    .strictObject({
      type: z.enum(KEY_TYPES).default('aes'),
      keyLen: z.union([z.literal(16), z.literal(24), z.literal(32)]).optional(),
      alg: z.enum(SIGNING_ALGS).optional(),
      exportable: z.boolean().optional(),
      jwtMaxLifetime: z.number().int().min(JWT_MAX_LIFETIME.min).max(JWT_MAX_LIFETIME.max).optional(),
      label: text({ min: 1, max: 256 }).optional(),
      expiresAt: z.iso.datetime({ offset: true }).optional(),
      rotationPeriod: rotationPeriod.optional(),
    })
    .prefault({})
    .superRefine(fitsItsType),
  export: z.strictObject({
    clientPubKey: text({ min: 1, minMessage: 'required', max: CLIENT_PUB_KEY_MAX_CHARS }),
    version: keyVersion.optional(),
  }),
  minVersion: z.strictObject({ minVersion: keyVersion }),
  /** docs/spec.md §4.25 item 7: publish a signing key's JWKS, or withdraw it. */
  published: z.strictObject({ published: z.boolean() }),
  /** docs/spec.md §4.23 item 5: the key server checks the days against its bounds (7..30 by default); an empty body waits the maximum. */
  scheduleDeletion: z.strictObject({ pendingDays: z.number().int().optional() }).prefault({}),
  /** docs/spec.md §4.22 item 10: 1..1000 versions a page, 100 by default. */
  versions: z.strictObject({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: text({ min: 1, max: 1024 }).optional(),
  }),
};

/**
 * The request's `Idempotency-Key` claim (docs/spec.md §4.22 item 7), or none without the header: the
 * fingerprint covers the method, the path with the key in its canonical form, and the parsed body.
 */
function claimOf(ctx: ApiContext, path: string, body: unknown): IdempotencyClaim | undefined {
  const header = ctx.get('Idempotency-Key');
  if (header === '') return undefined;
  return idempotencyClaim(parseIdempotencyKey(header), ctx.method, path, body);
}

/** Key lifecycle (docs/spec.md §4.6) and versions (§4.22). */
export function keyRoutes(services: GatewayServices): ApiRoute[] {
  const keys = services.keys;
  return [
    route({
      operationId: 'keys.create',
      method: 'POST',
      path: '/api/keys',
      auth: 'session',
      summary: 'Create a key owned by the caller (16, 24 or 32 bytes), with an optional rotation period',
      idempotent: true,
      body: schemas.create,
      success: { status: 201, schema: responses.key },
      async handle(ctx, { body, audit }) {
        const claim = claimOf(ctx, '/api/keys', body);
        const expiresAt = body.expiresAt === undefined ? undefined : Date.parse(body.expiresAt);
        // Once the key server named the key, the record names it, and a failure from here on points at
        // the read that shows it. Its undo is ready only for a key this request made: a replay made
        // nothing, and undoing the first request's key would destroy what that request answered.
        const made = (ttag: string, replayed: boolean) => {
          if (replayed) audit.note({ object: ttag });
          else
            audit.made({ object: ttag }, () =>
              services.keyServerCalls.call(callerOf(ctx), 'withdrawKey', { ttag, idempotencyKey: claim?.key }),
            );
          audit.checkWith(`GET /api/keys/${ttagToPath(ttag)}`);
        };
        const { type, keyLen, alg, exportable, jwtMaxLifetime } = body;
        const kind = type === 'aes' ? { keyLen: keyLen ?? 16 } : { type, alg, exportable, jwtMaxLifetime };
        const options = { ...kind, label: body.label, expiresAt, rotationPeriod: body.rotationPeriod };
        const created = await keys.create(callerOf(ctx), options, made, claim);
        audit.note({ version: created.version });
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
      async handle(ctx, { params, audit }) {
        const view = await services.keyServerCalls.call(callerOf(ctx), 'readKey', { ttag: params.ttag });
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.versions',
      method: 'GET',
      path: '/api/keys/:ttag/versions',
      auth: 'session',
      summary: "The key's versions, newest first, a page at a time (limit 1..1000, default 100, opaque cursor); right read",
      query: schemas.versions,
      success: { status: 200, schema: responses.keyVersions },
      async handle(ctx, { params, query, audit }) {
        const page = await services.keyServerCalls.call(callerOf(ctx), 'keyVersions', { ttag: params.ttag, ...query });
        noteResolved(audit, params.ttag, page.resolved);
        ctx.body = listBody(page);
      },
    }),
    route({
      operationId: 'keys.export',
      method: 'POST',
      path: '/api/keys/:ttag/export',
      auth: 'session',
      kind: 'release',
      summary: "Export a version of the key (default the newest) wrapped to the client's ephemeral P-256 or X-Wing key; right export",
      body: schemas.export,
      success: { status: 200, schema: responses.exported },
      auditVersion: ({ body }) => body.version,
      async handle(ctx, { body, params, audit }) {
        const exported = await keys.export(callerOf(ctx), params.ttag, body.clientPubKey, body.version, audit.recorded);
        audit.note({ version: exported.version });
        noteResolved(audit, params.ttag, exported.resolved);
        ctx.body = withoutResolved(exported);
      },
    }),
    route({
      operationId: 'keys.rotate',
      method: 'POST',
      path: '/api/keys/:ttag/rotate',
      auth: 'session',
      summary: 'Add the next version of the key, made by the key server; owner or right rotate',
      idempotent: true,
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const ttag = params.ttag;
        const view = await services.keyServerCalls.call(callerOf(ctx), 'rotateKey', {
          ttag,
          idempotency: claimOf(ctx, `/api/keys/${ttagToPath(ttag)}/rotate`, undefined),
        });
        audit.note({ version: view.version });
        noteResolved(audit, ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.min-version',
      method: 'PUT',
      path: '/api/keys/:ttag/min-version',
      auth: 'session',
      summary: 'Retire the versions below minVersion (owner); the minimum never goes down',
      body: schemas.minVersion,
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { body, params, audit }) {
        audit.note({ version: body.minVersion });
        const view = await keys.setMinVersion(callerOf(ctx), params.ttag, body.minVersion);
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.publish',
      method: 'PUT',
      path: '/api/keys/:ttag/published',
      auth: 'session',
      summary: "Publish the signing key's JWKS at /jwks/{alias}.json and /jwks/keys/{ttag}.json without a session, or withdraw it (owner)",
      body: schemas.published,
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { body, params, audit }) {
        const view = await keys.setPublished(callerOf(ctx), params.ttag, body.published);
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.expire',
      method: 'POST',
      path: '/api/keys/:ttag/expire',
      auth: 'session',
      summary: 'Expire the key for good (owner); it then refuses export and cryptography',
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const view = await keys.expire(callerOf(ctx), params.ttag);
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.disable',
      method: 'POST',
      path: '/api/keys/:ttag/disable',
      auth: 'session',
      summary: 'Disable the key (owner): it refuses export and cryptography with KEY_DISABLED until enabled',
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const view = await keys.setState(callerOf(ctx), params.ttag, 'disabled');
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.enable',
      method: 'POST',
      path: '/api/keys/:ttag/enable',
      auth: 'session',
      summary: 'Enable a disabled key again (owner)',
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const view = await keys.setState(callerOf(ctx), params.ttag, 'active');
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.schedule-deletion',
      method: 'POST',
      path: '/api/keys/:ttag/schedule-deletion',
      auth: 'session',
      summary:
        'Schedule the key for deletion in pendingDays days (owner; the key server bounds them, 7..30 by default, the maximum when not given): it refuses export and cryptography with KEY_PENDING_DELETION until cancelled, then is destroyed',
      body: schemas.scheduleDeletion,
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, body, audit }) {
        const view = await keys.scheduleDeletion(callerOf(ctx), params.ttag, body.pendingDays);
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
    route({
      operationId: 'keys.cancel-deletion',
      method: 'POST',
      path: '/api/keys/:ttag/cancel-deletion',
      auth: 'session',
      summary: "Cancel the key's scheduled deletion (owner): it comes back disabled (or expired), never straight to active",
      success: { status: 200, schema: responses.key },
      outcomeCheck: ({ params }) => `GET /api/keys/${ttagToPath(params.ttag)}`,
      async handle(ctx, { params, audit }) {
        const view = await keys.cancelDeletion(callerOf(ctx), params.ttag);
        noteResolved(audit, params.ttag, view.ttag);
        ctx.body = view;
      },
    }),
  ];
}
