import type { Context, Next } from 'koa';
import type { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { type AuditAbout, AuditScope, type RequestAudit, type RouteKind, UNRECORDED } from '../audit/audit-scope.js';
import { authenticate } from '../auth/authenticate.js';
import { sessionHeaderCredential } from '../auth/credential.js';
import { readJsonBody } from '../http/read-body.js';
import type { RouteDeclaration } from '../routing/route.js';
import { parseWith } from '../schema/parse.js';
import type { GatewayState } from '../state.js';
import type { RootOperation } from './root.errors.js';

export type RootContext = Context & { state: GatewayState & { operation?: RootOperation } };

/** What a root handler receives: the parsed body and its request's record. */
export interface RootInput<B> {
  readonly body: B;
  readonly audit: RequestAudit;
}

/**
 * One of the seven operations (docs/spec.md §2): the route, its OpenAPI operation, its audit name
 * and its kind from one declaration; `rootRouteStep` does the rest.
 */
export interface RootRoute<B = unknown> extends RouteDeclaration<B> {
  readonly surface: 'root';
  /** How the root error mapper names it (`<op> denied or failed`, docs/spec.md §2.5). */
  readonly operation: RootOperation;
  /** Its id in the audit log (docs/spec.md §9.1), the access log and the metrics. */
  readonly auditOperation: string;
  /** The 200 body (docs/spec.md §2.1, §2.2). */
  readonly answer: z.ZodType;
  /** The other statuses it answers, for the OpenAPI document. */
  readonly errors: readonly number[];
  /**
   * What it is for its record (audit-scope.ts `RouteKind`): each state change and session mint is a
   * `write`, begun before it is performed (fail closed), the export a `release`.
   */
  readonly kind: RouteKind;
  /** What its record names before the handler runs (docs/spec.md §9.1): the key, an ACL entry, the user tried. */
  readonly about?: (input: { readonly body: B }) => AuditAbout;
  handle(ctx: RootContext, input: RootInput<B>): Promise<void>;
}

/** Declares one of the seven operations, its body's type inferred from its schema. */
export function rootRoute<B = undefined>(definition: Omit<RootRoute<B>, 'surface'>): RootRoute {
  return { surface: 'root', ...definition } as unknown as RootRoute;
}

/**
 * One operation as one step: named for the error mapper (`<op> denied or failed`), its record opened
 * (or, for health, only the access log named); then, where docs/spec.md §2.4 asks for one (every route
 * but login and health), the `X-Session` session and a bound session's proof (`ath` then hashing the
 * `X-Session` value); then the parsed body and the handler, performed as the route's kind says.
 */
export function rootRouteStep(definition: RootRoute, services: GatewayServices): (ctx: RootContext, next: Next) => Promise<void> {
  const trail = services.auditTrail;
  const audited = definition.audited ?? true;
  const needsSession = definition.auth === 'session';
  return async function runOperation(ctx: RootContext) {
    ctx.state.operation = definition.operation;
    const scope = audited ? AuditScope.open(trail, ctx, definition.auditOperation) : undefined;
    if (scope === undefined) ctx.state.unauditedOperation = definition.auditOperation;
    if (needsSession) await authenticate(ctx, services, sessionHeaderCredential(ctx));
    const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
    const input = { body, audit: scope ?? UNRECORDED };
    if (scope === undefined) return definition.handle(ctx, input);
    await scope.perform(definition.kind, definition.about?.({ body }) ?? {}, () => definition.handle(ctx, input));
  };
}
