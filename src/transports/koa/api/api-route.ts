import type { Next } from 'koa';
import type { z } from 'zod';
import { BadRequestError, isKeygateError, outcomeUnknown, withoutOutcome } from '../../../domain/errors/index.js';
import { parseIdempotencyKey } from '../../../domain/idempotency/idempotency-claim.js';
import { parseTtag } from '../../../domain/key/ttag.js';
import type { GatewayServices, Prepared } from '../../../use-cases/index.js';
import { textFault } from '../../../wire/text.js';
import { authenticate } from '../authenticate.js';
import { bearerCredential } from '../credential.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import { type AuditAbout, nameAuditedOperation, noteAudit, performAudited, releaseWhenRecorded } from '../request-audit.js';
import type { RouteDeclaration } from '../route.js';
import type { ApiContext } from './api-context.js';

/** What a route's handler receives: the validated body and query, and the path parameters. */
export interface RouteInput<B, Q> {
  readonly body: B;
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
  /**
   * Only for a route with `overlapsAudit`: performs the use case's two-phase operation under the
   * request's audit record (request-audit.ts `releaseWhenRecorded`).
   */
  readonly releaseWhenRecorded?: <R>(prepare: () => Promise<Prepared<R>>) => Promise<R>;
}

/**
 * One /api operation: its method and path, whether it needs a session, its request schemas (zod,
 * strict) and its handler. The same declaration mounts the route, writes the OpenAPI document and
 * names the operation (its `operationId`) in the audit log.
 */
export interface ApiRoute<B = unknown, Q = unknown> extends RouteDeclaration<B> {
  readonly surface: 'api';
  readonly query?: z.ZodType<Q>;
  /** The success status and body schema (`also`: further statuses answered with the same body). */
  readonly success: { readonly status: number; readonly schema?: z.ZodType; readonly also?: readonly number[] };
  /** Path parameters' schemas for the document, where they differ from `pathParameters` by name. */
  readonly params?: Readonly<Record<string, z.ZodType>>;
  /**
   * A state change or a release of protected material: its audit record is stored (as pending) before
   * the handler runs, and the handler does not run when it cannot be (fail closed). Default: every
   * method but GET.
   */
  readonly sensitive?: boolean;
  /**
   * What the audit record names as the object; default: the key (a `ttag` in the path or the body,
   * as standard base64 like the root surface records it), else the `name`, `id`, `role` or
   * `parameter` path parameter.
   */
  readonly auditObject?: (input: RouteInput<B, Q>) => string | undefined;
  /**
   * A sensitive route whose use case is split in two (`Prepared`): its handler hands the first half,
   * which reads nothing protected (a key-server connection, the wrap's ECDH), to
   * `releaseWhenRecorded`, which runs it beside the pending record's write and releases once the
   * record is stored. Its failure settles after the record, so an audit refusal still wins.
   */
  readonly overlapsAudit?: boolean;
  /** Takes an `Idempotency-Key` header (docs/spec.md §4.22 item 7): the document shows it and its 422. */
  readonly idempotent?: boolean;
  /**
   * A write's read that shows whether it took effect (`GET /api/principals/alice`): given with
   * `outcome: "unknown"` when the write fails after it may have been carried out.
   */
  readonly outcomeCheck?: (input: RouteInput<B, Q>) => string;
  /** Who the record names before there is a session (a login: the user name tried). */
  readonly auditPrincipal?: (input: RouteInput<B, Q>) => string | undefined;
  /**
   * The OpenAPI operation beside its id and summary, as written, for the one route whose entry is not
   * derived from schemas (the document itself).
   */
  readonly openApi?: Record<string, unknown>;
  handle(ctx: ApiContext, input: RouteInput<B, Q>): Promise<void>;
}

/** Declares an /api route with its types inferred from its schemas. */
export function route<B = undefined, Q = undefined>(definition: Omit<ApiRoute<B, Q>, 'surface'>): ApiRoute {
  return { surface: 'api', ...definition } as unknown as ApiRoute;
}

/**
 * One /api route as one step: the operation named for the audit log (unless the route is not
 * audited), the session and its proof, the parsed input, the pending record of a sensitive operation,
 * then the handler. One function, not a middleware each: every request of the route passes all of them.
 */
export function apiRouteStep(definition: ApiRoute, services: GatewayServices): (ctx: ApiContext, next: Next) => Promise<void> {
  const audited = definition.audited ?? true;
  const needsSession = definition.auth === 'session';
  const sensitive = definition.sensitive ?? definition.method !== 'GET';
  const trail = services.auditTrail;
  return async function runRoute(ctx: ApiContext) {
    if (audited) nameAuditedOperation(trail, ctx, definition.operationId);
    if (needsSession) await authenticate(ctx, services, bearerCredential(ctx));
    const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
    const query = definition.query ? parseWith(definition.query, ctx.query) : undefined;
    // A malformed Idempotency-Key is refused before the pending record, as a body is (keys.routes.ts reads it).
    if (definition.idempotent === true && ctx.get('Idempotency-Key') !== '') parseIdempotencyKey(ctx.get('Idempotency-Key'));
    const input = { body, query, params: textParams((ctx as ApiContext & { params?: Record<string, string> }).params ?? {}) };
    const object = (definition.auditObject ?? defaultAuditObject)(input);
    if (!audited) {
      ctx.state.unauditedOperation = definition.operationId;
      return definition.handle(ctx, input);
    }
    const principal = definition.auditPrincipal?.(input);
    // Plain assignments, no conditional spreads: this runs on every audited request.
    const about: { -readonly [K in keyof AuditAbout]: AuditAbout[K] } = {};
    if (object !== undefined) about.object = object;
    if (principal !== undefined) about.principal = principal;
    if (sensitive) ctx.state.write = writeOf(definition, input);
    if (sensitive && definition.overlapsAudit) {
      return definition.handle(ctx, { ...input, releaseWhenRecorded: (prepare) => releaseWhenRecorded(trail, ctx, about, prepare) });
    }
    if (!sensitive) {
      noteAudit(ctx, about);
      return definition.handle(ctx, input).catch((error: unknown) => {
        throw readFailure(error);
      });
    }
    await performAudited(trail, ctx, about, () =>
      definition.handle(ctx, input).catch((error: unknown) => {
        throw withCheck(error, ctx.state.write);
      }),
    );
  };
}

/**
 * The path parameters under the text rule (docs/spec.md §1.6), checked before anything names them (the
 * record's object, a key-server call): a decoded `%00` in `/api/principals/{name}` is a 400 naming `name`.
 */
function textParams(params: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  for (const [name, value] of Object.entries(params)) {
    const fault = textFault(value);
    if (fault !== undefined) throw new BadRequestError(`${name}: ${fault}`);
  }
  return params;
}

function writeOf(definition: ApiRoute, input: RouteInput<unknown, unknown>): { check?: string } {
  const check = definition.outcomeCheck?.(input);
  return check === undefined ? {} : { check };
}

/** A write that failed once it may have been carried out says which read shows whether it was. */
function withCheck(error: unknown, write: { check?: string } | undefined): unknown {
  if (!isKeygateError(error) || error.outcome === undefined || error.check !== undefined || write?.check === undefined) return error;
  return outcomeUnknown(error, write.check);
}

/** A read changes nothing: its failure has no outcome to tell. */
function readFailure(error: unknown): unknown {
  return isKeygateError(error) ? withoutOutcome(error) : error;
}

function defaultAuditObject(input: RouteInput<unknown, unknown>): string | undefined {
  const { params, body } = input;
  const inBody = typeof body === 'object' && body !== null && 'ttag' in body && typeof body.ttag === 'string' ? body.ttag : undefined;
  const ttag = params.ttag ?? inBody;
  if (ttag !== undefined) return canonicalTtag(ttag);
  return params.name ?? params.id ?? params.role ?? params.parameter;
}

/** A ttag as standard base64; one that is no ttag names nothing (the route refuses it with 400). */
export function canonicalTtag(ttag: string): string | undefined {
  try {
    return parseTtag(ttag);
  } catch (error) {
    if (isKeygateError(error)) return undefined;
    throw error;
  }
}
