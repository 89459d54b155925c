import { Router } from '@koa/router';
import type { Next } from 'koa';
import type { z } from 'zod';
import { beginAudit, nameAuditedOperation, noteAudit, type AuditAbout } from '../request-audit.js';
import { KeygateError, isKeygateError, outcomeUnknown, withoutOutcome } from '../../../domain/errors/index.js';
import { parseTtag } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import type { ApiContext } from './api-context.js';
import { authenticate } from '../authenticate.js';
import { bearerCredential } from '../credential.js';
import { StaticRoutes } from '../static-routes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route's handler receives: the validated body and query, and the path parameters. */
export interface RouteInput<B, Q> {
  readonly body: B;
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
  /** Only for a route with `overlapsAudit`: the pending audit record's write, still running. */
  readonly recorded?: Promise<void>;
}

/**
 * One /api operation: its method and path, whether it needs a session, its request schemas (zod,
 * strict) and its handler. The same declaration mounts the route and writes the OpenAPI document.
 */
export interface ApiRoute<B = unknown, Q = unknown> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Koa path, parameters as `:name`. */
  readonly path: string;
  /** `none` for the five operations that need no session (docs/spec.md §4.1 item 1). */
  readonly auth: 'session' | 'none';
  readonly summary: string;
  readonly body?: z.ZodType<B>;
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
   * A sensitive route whose handler may start work that reads nothing protected (a key-server
   * connection, the wrap's ECDH) while its pending record is written; it must await `recorded` before
   * it reads or releases anything. Its failure settles after the record, so an audit refusal still wins.
   */
  readonly overlapsAudit?: boolean;
  /** Takes an `Idempotency-Key` header (docs/spec.md §4.22 item 7): the document shows it and its 422. */
  readonly idempotent?: boolean;
  /** False for a route that leaves no audit record (health probes: docs/spec.md §9.1). */
  readonly audited?: boolean;
  /**
   * A write's read that shows whether it took effect (`GET /api/principals/alice`): given with
   * `outcome: "unknown"` when the write fails after it may have been carried out.
   */
  readonly outcomeCheck?: (input: RouteInput<B, Q>) => string;
  /** Who the record names before there is a session (a login: the user name tried). */
  readonly auditPrincipal?: (input: RouteInput<B, Q>) => string | undefined;
  handle(ctx: ApiContext, input: RouteInput<B, Q>): Promise<void>;
}

/** Declares a route with its types inferred from its schemas. */
export function route<B = undefined, Q = undefined>(definition: ApiRoute<B, Q>): ApiRoute {
  return definition as unknown as ApiRoute;
}

/**
 * Mounts routes on a router: name the operation for the audit log (unless the route is not audited)
 * -> session (and its proof) -> parse -> begin the audit record of a sensitive operation -> handler.
 */
export function mountRoutes(routes: readonly ApiRoute[], services: GatewayServices): Router {
  const router = new Router({ strict: true });
  const fixed = fixedPathMethods(routes);
  for (const definition of routes) {
    const method = definition.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](definition.path, routeStep(definition, services, fixed) as never);
  }
  return router;
}

/**
 * The routes of fixed paths (most of /api) by one lookup, with the same steps as `mountRoutes`: a
 * request on one of them skips the router's pattern tests. Where a fixed path also fits a parameter
 * route of the same method (`GET /api/audit/verify`, `GET /api/audit/:id`), the router ran the one
 * declared first; the table declares the fixed one first, and so does this lookup.
 */
export function fixedRoutes(routes: readonly ApiRoute[], services: GatewayServices): StaticRoutes<ApiContext> {
  const table = new StaticRoutes<ApiContext>();
  const fixed = fixedPathMethods(routes);
  for (const definition of routes) {
    if (definition.path.includes(':') || table.has(definition.method, definition.path)) continue;
    table.on(definition.method, definition.path, routeStep(definition, services, fixed));
  }
  return table;
}

type RouteStep = (ctx: ApiContext, next: Next) => Promise<void>;

/**
 * One route as one step (see `mountRoutes`): a fixed path's other methods answered 405 first (for a
 * path with a parameter), the operation named for the audit log, the session and its proof, the
 * parsed input, the pending record of a sensitive operation, then the handler. One function, not a
 * middleware each: every request of the route passes all of them.
 */
function routeStep(definition: ApiRoute, services: GatewayServices, fixed: ReadonlyMap<string, readonly string[]>): RouteStep {
  const audited = definition.audited ?? true;
  const needsSession = definition.auth === 'session';
  const fixedFirst = definition.path.includes(':');
  const sensitive = definition.sensitive ?? definition.method !== 'GET';
  const trail = services.auditTrail;
  return async function runRoute(ctx: ApiContext) {
    if (fixedFirst) refuseOtherMethodOfFixedPath(ctx, fixed);
    if (audited) nameAuditedOperation(trail, ctx, definition.operationId);
    if (needsSession) await authenticate(ctx, services, bearerCredential(ctx));
    const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
    const query = definition.query ? parseWith(definition.query, ctx.query) : undefined;
    const input = { body, query, params: (ctx as ApiContext & { params?: Record<string, string> }).params ?? {} };
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
    if (sensitive && definition.overlapsAudit) return overlapping(definition, ctx, input, beginAudit(trail, ctx, about));
    if (sensitive) await beginAudit(trail, ctx, about);
    else noteAudit(ctx, about);
    await definition.handle(ctx, input).catch((error: unknown) => {
      throw sensitive ? withCheck(error, ctx.state.write) : readFailure(error);
    });
  };
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

/** Runs the handler beside the pending record's write; whatever happens, the write settles first. */
async function overlapping(definition: ApiRoute, ctx: ApiContext, input: RouteInput<unknown, unknown>, recorded: Promise<void>): Promise<void> {
  try {
    await definition.handle(ctx, { ...input, recorded });
  } catch (error) {
    await recorded;
    throw error;
  }
  await recorded;
}

/** The methods of each path without parameters (`/api/certificates/parse`: POST; a GET brings HEAD). */
export function fixedPathMethods(routes: readonly ApiRoute[]): ReadonlyMap<string, readonly string[]> {
  const fixed = new Map<string, string[]>();
  for (const { path, method } of routes) {
    if (!path.includes(':')) fixed.set(path, [...(fixed.get(path) ?? []), ...(method === 'GET' ? ['HEAD', 'GET'] : [method])]);
  }
  return fixed;
}

/**
 * A fixed path is never a value of a parameter (`GET /api/certificates/parse` is not the certificate
 * `parse`): a method the fixed path does not serve is 405 with its Allow header, as on any known path.
 */
function refuseOtherMethodOfFixedPath(ctx: ApiContext, fixed: ReadonlyMap<string, readonly string[]>): void {
  const allowed = fixed.get(ctx.path);
  if (allowed === undefined) return;
  ctx.state.allow = allowed.join(', ');
  throw new KeygateError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
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
