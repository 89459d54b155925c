import type { Context } from 'koa';
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
 * Names the request's operation (dotted id: `keys.export`), which makes it audited: the request gets
 * its audit draft here, and `requestStep` records it once the response is decided. A request whose
 * route names nothing (an unknown path, a health probe: api-surface.md "Additions in 8.1.x") leaves
 * no record and costs the audit log nothing.
 */
export function nameAuditedOperation(trail: AuditTrail, ctx: AuditContext, operation: string): void {
  if (ctx.state.audit === undefined) {
    const draft = trail.start(ctx.state.requestId);
    // The socket's peer, never X-Forwarded-For: the gateway does not trust a proxy's word.
    const address = ctx.req.socket.remoteAddress;
    if (address !== undefined) draft.clientAddress = address;
    ctx.state.audit = draft;
  }
  ctx.state.audit.operation = operation;
}

/** Registers how to undo what the route made, should its outcome not be recordable. */
export function undoUnlessRecorded(ctx: AuditContext, undo: () => Promise<unknown>): void {
  ctx.state.undo = async () => void (await undo());
}

/** Records the decided response of an audited request (called by `requestStep`). */
export async function finishAudit(trail: AuditTrail, ctx: AuditContext): Promise<void> {
  const draft = draftOf(ctx);
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
  if (about.principal !== undefined) draft.principal = about.principal;
  if (about.sessionRef !== undefined) draft.sessionRef = about.sessionRef;
  if (about.object !== undefined) draft.object = about.object;
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
  if (ctx.state.audit === undefined) throw new Error('the route named no audited operation');
  return ctx.state.audit;
}
