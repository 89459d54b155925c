import type { Context, Middleware } from 'koa';
import type { AuditDraft, AuditTrail } from '../../use-cases/audit.js';
import type { GatewayState } from './state.js';

type AuditContext = Context & { state: GatewayState };

/** What a route learns about its operation for the record: never a secret. */
export interface AuditAbout {
  readonly principal?: string;
  readonly sessionRef?: string;
  readonly object?: string;
}

/**
 * Gives each request an audit draft and, once the response is decided, records it through the trail.
 * Only requests whose route named an operation (`nameAuditedOperation`) are recorded; an unknown path
 * is not an operation. It runs between two error handlers: the inner one has shaped any failure of the
 * route (status and `ctx.state.errorCode` are final here); when the trail refuses to let a sensitive
 * success through unrecorded, the AuditUnavailableError it throws is shaped by the outer one.
 */
export function auditRequests(trail: AuditTrail): Middleware<GatewayState> {
  return async function auditRequest(ctx, next) {
    const draft = trail.start(ctx.state.requestId);
    // The socket's peer, never X-Forwarded-For: the gateway does not trust a proxy's word.
    const address = ctx.req.socket.remoteAddress;
    if (address !== undefined) draft.clientAddress = address;
    ctx.state.audit = draft;
    await next();
    if (draft.operation === undefined) return;
    identify(ctx, draft);
    await trail.finish(draft, { status: ctx.status, code: ctx.state.errorCode });
  };
}

/** Names the request's operation (dotted id: `keys.export`), which makes it audited. */
export function nameAuditedOperation(ctx: AuditContext, operation: string): void {
  draftOf(ctx).operation = operation;
}

/**
 * Called by a route right before it performs a sensitive operation: the record is stored as pending,
 * or AuditUnavailableError is thrown and the operation is not performed.
 */
export async function beginAudit(trail: AuditTrail, ctx: AuditContext, about: AuditAbout = {}): Promise<void> {
  noteAudit(ctx, about);
  const draft = draftOf(ctx);
  identify(ctx, draft);
  await trail.begin(draft);
}

/** Adds what the route learnt (a generated ttag, a minted session's reference) to the record. */
export function noteAudit(ctx: AuditContext, about: AuditAbout): void {
  const draft = draftOf(ctx);
  for (const field of ['principal', 'sessionRef', 'object'] as const) {
    if (about[field] !== undefined) draft[field] = about[field];
  }
}

/** The acting principal by user name, the session by its reference (never its id), and who it acts for. */
function identify(ctx: AuditContext, draft: AuditDraft): void {
  const session = ctx.state.caller?.session;
  if (session === undefined) return;
  draft.principal ??= session.identity.user;
  draft.sessionRef ??= session.ref;
  if (session.actingFor !== undefined) draft.actingFor ??= session.actingFor;
}

function draftOf(ctx: AuditContext): AuditDraft {
  if (ctx.state.audit === undefined) throw new Error('the audit middleware is not mounted');
  return ctx.state.audit;
}
