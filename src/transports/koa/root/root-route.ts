import type { Context, Next } from 'koa';
import type { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { authenticate } from '../authenticate.js';
import { sessionHeaderCredential } from '../credential.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import { nameAuditedOperation } from '../request-audit.js';
import type { RouteDeclaration } from '../route.js';
import type { GatewayState } from '../state.js';
import type { RootOperation } from './root.errors.js';

export type RootContext = Context & { state: GatewayState & { operation?: RootOperation } };

/**
 * One of the seven operations (docs/spec.md §2): the route, its OpenAPI operation and its audit name
 * from one declaration. The handler does its own audit steps (the record begun before a state change,
 * a session mint or a key release); the step before it does the rest (`rootRouteStep`).
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
  handle(ctx: RootContext, input: { readonly body: B }): Promise<void>;
}

/** Declares one of the seven operations, its body's type inferred from its schema. */
export function rootRoute<B = undefined>(definition: Omit<RootRoute<B>, 'surface'>): RootRoute {
  return { surface: 'root', ...definition } as unknown as RootRoute;
}

/**
 * One operation as one step: named for the error mapper (`<op> denied or failed`) and the audit log
 * (or, for health, only the access log); then, where docs/spec.md §2.4 asks for one (every route but
 * login and health), the `X-Session` session and a bound session's proof (`ath` then hashing the
 * `X-Session` value); then the parsed body and the handler.
 */
export function rootRouteStep(definition: RootRoute, services: GatewayServices): (ctx: RootContext, next: Next) => Promise<void> {
  const trail = services.auditTrail;
  const audited = definition.audited ?? true;
  const needsSession = definition.auth === 'session';
  return async function runOperation(ctx: RootContext) {
    ctx.state.operation = definition.operation;
    if (audited) nameAuditedOperation(trail, ctx, definition.auditOperation);
    else ctx.state.unauditedOperation = definition.auditOperation;
    if (needsSession) await authenticate(ctx, services, sessionHeaderCredential(ctx));
    const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
    await definition.handle(ctx, { body });
  };
}
