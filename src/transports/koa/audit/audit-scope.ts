/**
 * @file A request's audit record, owned by one object from route entry to the decided response
 * (docs/spec.md §9.1, §9.2), the same on both surfaces: the route step opens it (`AuditScope.open`),
 * performs the handler as the route's kind says (`perform`: a read is recorded after the fact, a
 * write once its pending record is stored, a release beside the pending record's write with its
 * protected read behind `recorded`), and the request step finishes it (`finish`). Handlers only tell
 * it what they learn (`RequestAudit`). Use cases never see the audit log's writing side: a release
 * receives the gate alone. docs/architecture.md, "Auditing a request: one owner", states the rule.
 */

import { finished } from 'node:stream';
import type { Context } from 'koa';
import type { AuditKeyUse } from '../../../domain/audit/audit.js';
import { auditContextFields } from '../../../domain/audit/audit-context.js';
import { auditSigningFields } from '../../../domain/audit/audit-signing.js';
import type { ErrorCode } from '../../../domain/errors/error-codes.js';
import { isKeygateError, outcomeUnknown } from '../../../domain/errors/index.js';
import type { Logger } from '../../../ports/logger.port.js';
import type { AuditDraft, AuditTrail } from '../../../use-cases/audit.js';
import type { ReleaseGate } from '../../../use-cases/release-gate.js';
import type { Caller } from '../../../use-cases/session-context.js';

/** What the scope reads of its request's state (state.ts `GatewayState`, which holds the scope as `audit`). */
type AuditContext = Context & {
  state: { readonly requestId: string; readonly caller?: Caller; readonly errorCode?: ErrorCode; audit?: unknown };
};

/**
 * What a route is, for its record (docs/spec.md §9.1): a `read` changes nothing and releases nothing
 * the caller did not send, and is recorded after the fact; a `write` (or a session mint, or a
 * decryption) runs only once its pending record is stored; a `release` hands out key material, read
 * only once its pending record is stored while the rest of it overlaps that write.
 */
export type RouteKind = 'read' | 'write' | 'release';

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
  /** The alias the request named its key by (docs/spec.md §4.23 item 3): `object` is the ttag it resolved to, once known. */
  readonly alias?: string;
  /**
   * A signing key's type, the algorithm and the version's key id an operation used (docs/spec.md §4.25
   * item 8, §9.1 `keyType`, `alg`, `kid`).
   */
  readonly keyType?: string;
  readonly alg?: string;
  readonly kid?: string;
  /**
   * The encryption context a single request named (docs/spec.md §4.5b item 5, §9.1 `context`); a batch's
   * contexts (its items', in order: the scope keeps the distinct ones, at most 16) and how many more it
   * named beyond those given (`contexts`, `contextsOmitted`).
   */
  readonly context?: Readonly<Record<string, string>>;
  readonly contexts?: readonly Readonly<Record<string, string>>[];
  readonly contextsOmitted?: number;
}

/** A handler's view of its request's record. */
export interface RequestAudit {
  /** Adds what the handler learnt (a key version, a minted session's reference) to the record. */
  note(about: AuditAbout): void;
  /**
   * Names what the route made (a generated key) as soon as the key server answered with it, and how
   * to undo it should its record be lost (`finish`).
   */
  made(about: AuditAbout, undo: () => Promise<unknown>): void;
  /** The read that shows whether this write took effect, once known (a created key's `GET`). */
  checkWith(check: string): void;
  /** For a `release`: resolves once the pending record is stored (the use case's `ReleaseGate`). */
  readonly recorded: ReleaseGate;
}

/** How `finish` runs an undo, and whom it tells when the undo fails. */
export interface Undoing {
  readonly withinRequest: <T>(work: () => Promise<T>) => Promise<T>;
  readonly failed: (draft: AuditDraft, error: unknown) => void;
}

/** The record of an audited request, from route entry to its finish. */
export class AuditScope implements RequestAudit {
  readonly #trail: AuditTrail;
  readonly #ctx: AuditContext;
  /** The record in the making (the access log reads its operation and principal). */
  readonly draft: AuditDraft;
  #undo: (() => Promise<void>) | undefined;
  /** Set for an /api write: its failures once it may have been carried out say `outcome: "unknown"`. */
  #write: { check?: string } | undefined;
  #recording: Promise<void> | undefined;

  /**
   * Names the request's operation (dotted id: `keys.export`), which makes it audited: the request step
   * finishes its record once the response is decided. A request whose route names nothing (an unknown
   * path, a health probe: docs/spec.md §9.1) has no scope and costs the audit log nothing.
   */
  static open(trail: AuditTrail, ctx: AuditContext, operation: string): AuditScope {
    const scope = new AuditScope(trail, ctx, operation);
    ctx.state.audit = scope;
    return scope;
  }

  private constructor(trail: AuditTrail, ctx: AuditContext, operation: string) {
    this.#trail = trail;
    this.#ctx = ctx;
    this.draft = trail.start(ctx.state.requestId);
    // The socket's peer, never X-Forwarded-For: the gateway does not trust a proxy's word.
    const address = ctx.req.socket.remoteAddress;
    if (address !== undefined) this.draft.clientAddress = address;
    this.draft.operation = operation;
  }

  /**
   * Performs the route's handler as its kind says. A `write` stores the pending record first and runs
   * `work` only once it is (fail closed: AuditUnavailableError, nothing performed). A `release` starts
   * the pending record's write and runs `work` beside it; `work` passes `recorded` before it reads
   * anything protected. Both settle before anything is answered, so an audit refusal wins over the
   * work's own failure (a bad client key), and a result is never answered unrecorded.
   */
  async perform<R>(kind: RouteKind, about: AuditAbout, work: () => Promise<R>): Promise<R> {
    this.note(about);
    if (kind === 'read') return work();
    if (kind === 'write') {
      await this.#begin();
      return work();
    }
    const recording = this.#begin();
    this.#recording = recording;
    recording.catch(() => undefined);
    let result: R;
    try {
      result = await work();
    } catch (error) {
      await recording;
      throw error;
    }
    await recording;
    return result;
  }

  readonly recorded: ReleaseGate = () => this.#recording ?? Promise.reject(new Error('the route is no release'));

  note(about: AuditAbout): void {
    const draft = this.draft;
    if (about.principal !== undefined) draft.principal = about.principal;
    if (about.sessionRef !== undefined) draft.sessionRef = about.sessionRef;
    if (about.object !== undefined) draft.object = about.object;
    if (about.version !== undefined) draft.version = about.version;
    if (about.items !== undefined) draft.items = about.items;
    if (about.failures !== undefined) draft.failures = about.failures;
    if (about.keys !== undefined) draft.keys = about.keys;
    if (about.keysOmitted !== undefined) draft.keysOmitted = about.keysOmitted;
    if (about.alias !== undefined) draft.alias = about.alias;
    if (about.keyType !== undefined || about.alg !== undefined || about.kid !== undefined) noteSigning(draft, about);
    if (about.context !== undefined || about.contexts !== undefined || about.contextsOmitted !== undefined) noteContexts(draft, about);
  }

  made(about: AuditAbout, undo: () => Promise<unknown>): void {
    this.note(about);
    this.#undo = async () => void (await undo());
  }

  /** Marks the request as an /api write, whose failures may leave an unknown outcome (`outcomeOf`). */
  writes(check: string | undefined): void {
    this.#write = check === undefined ? {} : { check };
  }

  checkWith(check: string): void {
    this.#write = { check };
  }

  /** A write that failed once it may have been carried out says which read shows whether it was. */
  outcomeOf(error: unknown): unknown {
    const check = this.#write?.check;
    if (!isKeygateError(error) || error.outcome === undefined || error.check !== undefined || check === undefined) return error;
    return outcomeUnknown(error, check);
  }

  /**
   * Records the decided response (the request step's last word on it). An object the route made
   * (`made`) whose record, the one entry naming it, could not be stored is undone, whatever the
   * response: nothing is left in the key server that the audit log cannot account for. The undo runs
   * as a request of its own (`withinRequest`: fresh budgets, since this request's may be spent) and is
   * not awaited, so the answer keeps its bound; an undo that fails is logged with the object it leaves.
   * Once the undo has run and the answer has gone out, the record is written late, naming the object
   * and the response answered (`AuditTrail.finishLate`, tried again while the store refuses): every
   * key the key server holds is named by the audit log (docs/spec.md §9.2).
   */
  async finish(undoing: Undoing): Promise<void> {
    const ctx = this.#ctx;
    const draft = this.draft;
    this.#identify();
    let recorded = false;
    try {
      recorded = await this.#trail.finish(draft, { status: ctx.status, code: ctx.state.errorCode });
    } catch (error) {
      // The write was carried out (its record is what failed); an undo may or may not follow.
      throw this.#write !== undefined && isKeygateError(error) ? outcomeUnknown(error, this.#write.check) : error;
    } finally {
      const undo = this.#undo;
      if (!recorded && undo !== undefined) {
        void undoing
          .withinRequest(undo)
          .catch((error: unknown) => undoing.failed(draft, error))
          .then(() => answered(ctx))
          .then(() => this.#trail.finishLate(draft, { status: ctx.status, code: ctx.state.errorCode }));
      }
    }
  }

  /** Stores the record as pending, or throws AuditUnavailableError. */
  #begin(): Promise<void> {
    this.#identify();
    return this.#trail.begin(this.draft);
  }

  /** The acting principal by user name, the session by its reference (never its id), and who it acts for. */
  #identify(): void {
    const session = this.#ctx.state.caller?.session;
    if (session === undefined) return;
    const draft = this.draft;
    draft.principal ??= session.identity.user;
    draft.sessionRef ??= session.ref;
    if (session.actingFor !== undefined) draft.actingFor ??= session.actingFor;
  }
}

/** A signing key's type, algorithm and key id, each only when it holds its rule (`auditSigningFields`). */
function noteSigning(draft: AuditDraft, about: AuditAbout): void {
  const { keyType, alg, kid } = auditSigningFields(about);
  if (keyType !== undefined) draft.keyType = keyType;
  if (alg !== undefined) draft.alg = alg;
  if (kid !== undefined) draft.kid = kid;
}

/**
 * The encryption context a request named, or a batch's distinct ones, as the audit bounds them
 * (`auditContextFields`: a context outside docs/spec.md §4.5b item 1 is left out, at most 16 of a batch).
 */
function noteContexts(draft: AuditDraft, about: AuditAbout): void {
  const { context, contexts, contextsOmitted } = auditContextFields(about);
  if (context !== undefined) draft.context = context;
  if (contexts !== undefined) draft.contexts = contexts;
  if (contextsOmitted !== undefined) draft.contextsOmitted = contextsOmitted;
}

/** The scope of a route that leaves no record (health probes, the OpenAPI document): it does the work. */
export const UNRECORDED: RequestAudit = {
  note: () => undefined,
  made: () => undefined,
  checkWith: () => undefined,
  recorded: () => Promise.reject(new Error('the route is no release')),
};

/** How the request step undoes what a route made when its record was lost, and logs an undo that fails. */
export function undoingWithin(logger: Logger, withinRequest: <T>(work: () => Promise<T>) => Promise<T>): Undoing {
  return {
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
}

/** Resolves once the response has gone out (or its connection closed): its status is then final. */
function answered(ctx: AuditContext): Promise<void> {
  return new Promise((resolve) => {
    finished(ctx.res, () => resolve());
  });
}
