import type { Next } from 'koa';
import type { z } from 'zod';
import { BadRequestError, isKeygateError, withoutOutcome } from '../../../domain/errors/index.js';
import { parseIdempotencyKey } from '../../../domain/idempotency/idempotency-claim.js';
import { parseKeyReference } from '../../../domain/key/ttag.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { aliasOf } from '../../../wire/alias.js';
import { textFault } from '../../../wire/text.js';
import { type AuditAbout, AuditScope, type RequestAudit, type RouteKind, UNRECORDED } from '../audit/audit-scope.js';
import { authenticate } from '../auth/authenticate.js';
import { bearerCredential } from '../auth/credential.js';
import { readJsonBody } from '../http/read-body.js';
import type { RouteDeclaration } from '../routing/route.js';
import { parseWith } from '../schema/parse.js';
import type { ApiContext } from './api-context.js';

/** The names of a Koa path's parameters: `/api/keys/:ttag/acl/:principal` has `ttag` and `principal`. */
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer R}`
  ? N | ParamNames<`/${R}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;

/** A route's path parameters, checked at the edge: `ttag` in its canonical form (standard base64). */
export type PathParams<P extends string = string> = string extends P
  ? Readonly<Record<string, string>>
  : { readonly [K in ParamNames<P>]: string };

/** What a route's handler receives: the validated body, query and path parameters, and its request's record. */
export interface RouteInput<B, Q, P extends string = string> {
  readonly body: B;
  readonly query: Q;
  readonly params: PathParams<P>;
  /** What the handler tells the record; for a `release`, the gate its use case waits at. */
  readonly audit: RequestAudit;
}

/**
 * One /api operation: its method and path, whether it needs a session, its request schemas (zod,
 * strict) and its handler. The same declaration mounts the route, writes the OpenAPI document and
 * names the operation (its `operationId`) in the audit log.
 */
export interface ApiRoute<B = unknown, Q = unknown, P extends string = string> extends RouteDeclaration<B> {
  readonly path: P;
  readonly surface: 'api';
  readonly query?: z.ZodType<Q>;
  /** The success status and body schema (`also`: further statuses answered with the same body). */
  readonly success: { readonly status: number; readonly schema?: z.ZodType; readonly also?: readonly number[] };
  /** Path parameters' schemas for the document, where they differ from `pathParameters` by name. */
  readonly params?: Readonly<Record<string, z.ZodType>>;
  /**
   * What the route is for its record (audit-scope.ts `RouteKind`): a `write` and a `release` are
   * sensitive (docs/spec.md §9.1), their pending record stored before anything is changed or released
   * (fail closed). Default: `read` for GET, `write` for every other method.
   */
  readonly kind?: RouteKind;
  /**
   * What the audit record names as the object; default: the key (a `ttag` in the path or the body,
   * as standard base64 like the root surface records it), else the `name`, `id`, `role` or
   * `parameter` path parameter.
   */
  readonly auditObject?: (input: RouteInput<B, Q, P>) => string | undefined;
  /** The key version the record names from its pending entry on, where the request names one. */
  readonly auditVersion?: (input: RouteInput<B, Q, P>) => number | undefined;
  /** Takes an `Idempotency-Key` header (docs/spec.md §4.22 item 7): the document shows it and its 422. */
  readonly idempotent?: boolean;
  /**
   * A write's read that shows whether it took effect (`GET /api/principals/alice`): given with
   * `outcome: "unknown"` when the write fails after it may have been carried out.
   */
  readonly outcomeCheck?: (input: RouteInput<B, Q, P>) => string;
  /** Who the record names before there is a session (a login: the user name tried). */
  readonly auditPrincipal?: (input: RouteInput<B, Q, P>) => string | undefined;
  /**
   * The OpenAPI operation beside its id and summary, as written, for the one route whose entry is not
   * derived from schemas (the document itself).
   */
  readonly openApi?: Record<string, unknown>;
  handle(ctx: ApiContext, input: RouteInput<B, Q, P>): Promise<void>;
}

/** Declares an /api route with its types inferred from its schemas. */
export function route<B = undefined, Q = undefined, P extends string = string>(definition: Omit<ApiRoute<B, Q, P>, 'surface'>): ApiRoute {
  return { surface: 'api', ...definition } as unknown as ApiRoute;
}

/**
 * One /api route as one step: its record opened (unless the route is not audited), the session and
 * its proof, the parsed input, then the handler performed as the route's kind says (audit-scope.ts).
 * One function, not a middleware each: every request of the route passes all of them.
 */
export function apiRouteStep(definition: ApiRoute, services: GatewayServices): (ctx: ApiContext, next: Next) => Promise<void> {
  const audited = definition.audited ?? true;
  const needsSession = definition.auth === 'session';
  const kind = definition.kind ?? (definition.method === 'GET' ? 'read' : 'write');
  const trail = services.auditTrail;
  return async function runRoute(ctx: ApiContext) {
    const scope = audited ? AuditScope.open(trail, ctx, definition.operationId) : undefined;
    if (scope === undefined) ctx.state.unauditedOperation = definition.operationId;
    if (needsSession) await authenticate(ctx, services, bearerCredential(ctx));
    const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
    const query = definition.query ? parseWith(definition.query, ctx.query) : undefined;
    // A malformed Idempotency-Key is refused before the pending record, as a body is (keys.routes.ts reads it).
    if (definition.idempotent === true && ctx.get('Idempotency-Key') !== '') parseIdempotencyKey(ctx.get('Idempotency-Key'));
    const params = pathParams((ctx as ApiContext & { params?: Record<string, string> }).params ?? {});
    const input: RouteInput<unknown, unknown> = { body, query, params, audit: scope ?? UNRECORDED };
    if (scope === undefined) return definition.handle(ctx, input);
    if (kind !== 'read') scope.writes(definition.outcomeCheck?.(input));
    const work = () => definition.handle(ctx, input);
    const failed = (error: unknown): never => {
      throw kind === 'read' ? readFailure(error) : kind === 'write' ? scope.outcomeOf(error) : error;
    };
    await scope.perform(kind, aboutOf(definition, input), work).catch(failed);
  };
}

/** The record's object and principal as the route declares them (plain assignments: this runs on every audited request). */
function aboutOf(definition: ApiRoute, input: RouteInput<unknown, unknown>): AuditAbout {
  const about: { -readonly [K in keyof AuditAbout]: AuditAbout[K] } = {};
  const object = (definition.auditObject ?? defaultAuditObject)(input);
  const principal = definition.auditPrincipal?.(input);
  const version = definition.auditVersion?.(input);
  // A key named by alias: the record names the alias now, and the ttag it resolved to once the key
  // server answered (key-reference.ts `noteResolved`), never the alias as the object. The alias
  // routes name theirs in the path.
  const named = aliasOf(keyReferenceOf(input) ?? '');
  const alias = named ?? input.params.alias;
  if (alias !== undefined) about.alias = alias;
  if (named === undefined && object !== undefined) about.object = object;
  if (principal !== undefined) about.principal = principal;
  if (version !== undefined) about.version = version;
  return about;
}

/**
 * The path parameters, each read once here, before anything names them (the record's object, a
 * key-server call): every one under the text rule (docs/spec.md §1.6: a decoded `%00` in
 * `/api/principals/{name}` is a 400 naming `name`), and `{ttag}` as a key handle in its canonical
 * form (docs/spec.md §1.4: base64url, or standard base64 percent-encoded).
 */
function pathParams(params: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  for (const [name, value] of Object.entries(params)) {
    const fault = textFault(value);
    if (fault !== undefined) throw new BadRequestError(`${name}: ${fault}`);
  }
  return params.ttag === undefined ? params : { ...params, ttag: parseKeyReference(params.ttag, 'ttag') };
}

/** A read changes nothing: its failure has no outcome to tell. */
function readFailure(error: unknown): unknown {
  return isKeygateError(error) ? withoutOutcome(error) : error;
}

/** The key (in the path, or a body's `ttag`: both read at the edge, canonical), else the object the path names. */
function defaultAuditObject(input: RouteInput<unknown, unknown>): string | undefined {
  const { params } = input;
  return keyReferenceOf(input) ?? params.name ?? params.id ?? params.role ?? params.parameter;
}

/** How the request names its key: the path's `{ttag}` or the body's `ttag` (a ttag, or `alias/<name>`). */
function keyReferenceOf(input: RouteInput<unknown, unknown>): string | undefined {
  const { params, body } = input;
  if (params.ttag !== undefined) return params.ttag;
  if (typeof body === 'object' && body !== null && 'ttag' in body && typeof body.ttag === 'string') return body.ttag;
  return undefined;
}
