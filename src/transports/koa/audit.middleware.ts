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
    ctx.state.audit = draft;
    await next();
    if (draft.operation === undefined) return;
    identify(ctx, draft);
    try {
      await trail.finish(draft, { status: ctx.status, code: ctx.state.errorCode });
    } catch (error) {
      // Issue 15 §2: an object made while the outcome could not be recorded (its pending record does
      // not name it) is undone, so nothing exists that the audit log cannot account for.
      await ctx.state.undo?.().catch(() => undefined);
      throw error;
    }
  };
}

/** Registers how to undo what the route made, should its outcome not be recordable. */
export function undoUnlessRecorded(ctx: AuditContext, undo: () => Promise<unknown>): void {
  ctx.state.undo = async () => void (await undo());
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

/** The acting principal by user name, and the session by its reference (never its id). */
function identify(ctx: AuditContext, draft: AuditDraft): void {
  const session = ctx.state.caller?.session;
  if (session === undefined) return;
  draft.principal ??= session.identity.user;
  draft.sessionRef ??= session.ref;
}

function draftOf(ctx: AuditContext): AuditDraft {
  if (ctx.state.audit === undefined) throw new Error('the audit middleware is not mounted');
  return ctx.state.audit;
}
