/**
 * @file The one owner of a request's audit record (docs/spec.md §9.1, §9.2), the same on both
 * surfaces. The route says which operation the request is (`nameAuditedOperation`) and what it learns
 * for the record (`noteAudit`, `undoUnlessRecorded`); a sensitive operation is performed through
 * `performAudited` (begin, then perform) or, when its first half may overlap the pending record's
 * write, `releaseWhenRecorded` (begin beside the use case's `prepare…`, release once recorded); the
 * request step finishes the record once the response is decided (`auditFinisher`, `finishAudit`).
 * Use cases never see the audit log's writing side: no record, promise or draft enters their
 * signatures. docs/architecture.md, "Auditing a request: one owner", states the rule.
 */

import { finished } from 'node:stream';
import type { Context } from 'koa';
import type { AuditKeyUse } from '../../domain/audit/audit.js';
import { isKeygateError, outcomeUnknown } from '../../domain/errors/index.js';
import type { Logger } from '../../ports/logger.port.js';
import type { AuditDraft, AuditTrail } from '../../use-cases/audit.js';
import type { Prepared } from '../../use-cases/prepared.js';
import type { GatewayState } from './state.js';

type AuditContext = Context & { state: GatewayState };

/** What a route learns about its operation for the record: never a secret. */
export interface AuditAbout {
  readonly principal?: string;
  readonly sessionRef?: string;
  readonly object?: string;
  /** The key version acted on; a batch's item and failure counts (docs/spec.md §9.1). */
  readonly version?: number;
  readonly items?: number;
  readonly failures?: number;
  /** A batch's distinct keys and versions (bounded, `batchKeyUses`), and how many more it named. */
  readonly keys?: readonly AuditKeyUse[];
  readonly keysOmitted?: number;
}

/**
 * Names the request's operation (dotted id: `keys.export`), which makes it audited: the request gets
 * its audit draft here, and `requestStep` records it once the response is decided. A request whose
 * route names nothing (an unknown path, a health probe: docs/spec.md §9.1) leaves
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

/**
 * Registers how to undo what the route made (a generated key), as soon as the key server answered
 * with it: from then on the request's record names the object, whatever happens next.
 */
export function undoUnlessRecorded(ctx: AuditContext, about: AuditAbout, undo: () => Promise<unknown>): void {
  noteAudit(ctx, about);
  ctx.state.undo = async () => void (await undo());
}

/**
 * Records the decided response of an audited request (the request step's last word on it). An object the route
 * made (`undoUnlessRecorded`) whose record, the one entry naming it, could not be stored is undone,
 * whatever the response: nothing is left in the key server that the audit log cannot account for.
 * The undo runs as a request of its own (`withinRequest`: fresh budgets, since this request's may be
 * spent) and is not awaited, so the answer keeps its bound; an undo that fails is logged with the
 * object it leaves. Once the undo has run and the answer has gone out, the record is written late,
 * naming the object and the response answered (`AuditTrail.finishLate`, tried again while the store
 * refuses): every key the key server holds is named by the audit log (docs/spec.md §9.2).
 */
export async function finishAudit(trail: AuditTrail, ctx: AuditContext, undoing: Undoing = {}): Promise<void> {
  const draft = draftOf(ctx);
  if (draft.operation === undefined) return;
  identify(ctx, draft);
  let recorded = false;
  try {
    recorded = await trail.finish(draft, { status: ctx.status, code: ctx.state.errorCode });
  } catch (error) {
    // The write was carried out (its record is what failed); an undo may or may not follow.
    const write = ctx.state.write;
    throw write !== undefined && isKeygateError(error) ? outcomeUnknown(error, write.check) : error;
  } finally {
    const undo = ctx.state.undo;
    if (!recorded && undo !== undefined) {
      const within = undoing.withinRequest ?? ((work) => work());
      within(undo)
        .catch((error: unknown) => undoing.failed?.(draft, error))
        .then(() => answered(ctx))
        .then(() => trail.finishLate(draft, { status: ctx.status, code: ctx.state.errorCode }));
    }
  }
}

/** Resolves once the response has gone out (or its connection closed): its status is then final. */
function answered(ctx: AuditContext): Promise<void> {
  return new Promise((resolve) => {
    finished(ctx.res, () => resolve());
  });
}

/**
 * The request step's fourth part: `finishAudit` of the request, its undo run within a request of its
 * own and an undo that fails logged with the object it leaves.
 */
export function auditFinisher(
  trail: AuditTrail,
  logger: Logger,
  withinRequest: <T>(work: () => Promise<T>) => Promise<T>,
): (ctx: AuditContext) => Promise<void> {
  const undoing: Undoing = {
    withinRequest,
    failed: (draft, error) =>
      logger.error('an object made without its audit record was not undone', {
        requestId: draft.requestId,
        auditId: draft.id,
        operation: draft.operation,
        object: draft.object,
        code: isKeygateError(error) ? error.code : undefined,
      }),
  };
  return function finishRequestAudit(ctx) {
    return finishAudit(trail, ctx, undoing);
  };
}

/** How `finishAudit` runs an undo, and whom it tells when the undo fails. */
export interface Undoing {
  readonly withinRequest?: <T>(work: () => Promise<T>) => Promise<T>;
  readonly failed?: (draft: AuditDraft, error: unknown) => void;
}

/**
 * Performs a sensitive operation: its record is stored as pending first, and `perform` runs only once
 * it is; when the store cannot take it, AuditUnavailableError is thrown and nothing is performed.
 */
export async function performAudited<R>(trail: AuditTrail, ctx: AuditContext, about: AuditAbout, perform: () => Promise<R>): Promise<R> {
  await begin(trail, ctx, about);
  return perform();
}

/**
 * Performs a sensitive operation whose first half reads nothing protected (`Prepared`) beside the
 * pending record's write, for speed; its release runs only once the record is stored. Both settle
 * before anything is answered, and an audit refusal wins over the first half's own failure (a bad
 * client key): the operation is refused as unrecorded, and what the first half holds is abandoned.
 */
export async function releaseWhenRecorded<R>(
  trail: AuditTrail,
  ctx: AuditContext,
  about: AuditAbout,
  prepare: () => Promise<Prepared<R>>,
): Promise<R> {
  const recording = begin(trail, ctx, about);
  const preparing = settleLater(prepare);
  try {
    await recording;
  } catch (error) {
    preparing.then(
      (prepared) => prepared.abandon(),
      () => undefined,
    );
    throw error;
  }
  const prepared = await preparing;
  return prepared.release();
}

/** `prepare()` as a promise that may reject before anyone awaits it without being reported unhandled. */
function settleLater<T>(prepare: () => Promise<T>): Promise<T> {
  let preparing: Promise<T>;
  try {
    preparing = prepare();
  } catch (error) {
    preparing = Promise.reject(error);
  }
  preparing.catch(() => undefined);
  return preparing;
}

/** Stores the record as pending (once per request), or throws AuditUnavailableError. */
async function begin(trail: AuditTrail, ctx: AuditContext, about: AuditAbout): Promise<void> {
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
  if (about.version !== undefined) draft.version = about.version;
  if (about.items !== undefined) draft.items = about.items;
  if (about.failures !== undefined) draft.failures = about.failures;
  if (about.keys !== undefined) draft.keys = about.keys;
  if (about.keysOmitted !== undefined) draft.keysOmitted = about.keysOmitted;
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
