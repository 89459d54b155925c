import type { KeyObject } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AuditUnavailableError } from '../domain/audit/audit.errors.js';
import {
  type AuditCompletion,
  type AuditKeyUse,
  type AuditRecord,
  completeRecord,
  isAuditId,
  isSensitiveOperation,
  newAuditId,
  outcomeForStatus,
  PENDING_STATUS,
} from '../domain/audit/audit.js';
import type { AuditChainRange } from '../domain/audit/audit-entry.js';
import type { AuditPage, AuditQuery } from '../domain/audit/audit-query.js';
import { AuditLogVerifier, type AuditVerification } from '../domain/audit/audit-verify.js';
import type { WitnessedHead } from '../domain/audit/audit-witness.js';
import { BadRequestError, isKeygateError, NotFoundError } from '../domain/errors/index.js';
import { requireHeld } from '../domain/roles/held-operations.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type { AuditWitness } from '../ports/audit-witness.port.js';
import type { Timer } from '../ports/clock.port.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';
import type { EncryptionContext } from '../wire/encryption-context.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/**
 * The record of one request while it runs. The transport fills in what it learns (the operation, who,
 * about what); never a secret: a principal is a user name, a session is its `ref`, an object a ttag.
 */
export interface AuditDraft {
  readonly id: string;
  readonly at: number;
  readonly requestId: string;
  operation?: string;
  principal?: string;
  sessionRef?: string;
  object?: string;
  /** The connection's peer address (the socket's). */
  clientAddress?: string;
  /** For a delegated session: the service acting for `principal`. */
  actingFor?: string;
  /** The key version acted on, once known (docs/spec.md §9.1). */
  version?: number;
  /** A batch's item count and failure count. */
  items?: number;
  failures?: number;
  /** A batch's distinct keys and versions (bounded), and how many more it named. */
  keys?: readonly AuditKeyUse[];
  keysOmitted?: number;
  /** The alias the request named its key by (docs/spec.md §4.23 item 3); `object` is the ttag it resolved to. */
  alias?: string;
  /** A signing key's type, the algorithm and the version's key id the operation used (docs/spec.md §4.25 item 8). */
  keyType?: string;
  alg?: string;
  kid?: string;
  /** The encryption context a request named, a batch's distinct ones and how many more (docs/spec.md §4.5b item 5). */
  context?: EncryptionContext;
  contexts?: readonly EncryptionContext[];
  contextsOmitted?: number;
}

/**
 * The writing side of the audit log, failing closed as trusted key managers do. A sensitive operation
 * (`isSensitiveOperation`) is `begin`-ed before it is performed: its record is stored as `pending`, and
 * when the store cannot take it the operation is refused, not run. `finish` appends its outcome as a
 * second entry (same id and request id; nothing stored is updated), which readers fold into one
 * record, so every operation reads as exactly one record. Other operations are recorded once,
 * by `finish`, and a failure to record them is logged, not fatal. A sensitive operation that succeeded
 * is never answered unless its final record is stored (its result, key material included, is withheld);
 * a record that stays `pending` marks an operation whose outcome could not be written.
 * Its one caller is the transport's audit scope (audit-scope.ts), which owns each request's record
 * (docs/architecture.md, "Auditing a request: one owner"); use cases never write records.
 */
export class AuditTrail {
  readonly #deps: { log: AuditLog; clock: Timer; random: Random; logger: Logger };
  readonly #begun = new WeakSet<AuditDraft>();
  /** Drafts whose begin failure was logged: their finish adds no second line for the same refusal. */
  readonly #reported = new WeakSet<AuditDraft>();

  constructor(deps: { log: AuditLog; clock: Timer; random: Random; logger: Logger }) {
    this.#deps = deps;
  }

  /** A draft for a request that just arrived (`at` is now). No I/O. */
  start(requestId: string): AuditDraft {
    return { id: newAuditId(this.#deps.random), at: this.#deps.clock.now(), requestId };
  }

  /** Stores the draft as pending; throws AuditUnavailableError when it cannot (do not perform the operation). */
  async begin(draft: AuditDraft): Promise<void> {
    if (this.#begun.has(draft)) return;
    const pending = snapshot(draft, 'pending', PENDING_STATUS);
    try {
      await this.#deps.log.append(pending);
    } catch (error) {
      this.#report('begin', draft, error);
      this.#reported.add(draft);
      throw isKeygateError(error) && error.code === 'AUDIT_UNAVAILABLE' ? error : new AuditUnavailableError(undefined, error);
    }
    this.#begun.add(draft);
  }

  /**
   * Records the response decided for the draft's request; answers whether the record was stored.
   * Throws AuditUnavailableError only when a sensitive operation succeeded and its record could not be
   * stored: the caller withholds the result.
   */
  async finish(draft: AuditDraft, response: { status: number; code?: string }): Promise<boolean> {
    const { id, operation } = requireOperation(draft);
    const completion = completionOf(draft, response, this.#deps.clock.now());
    const begun = this.#begun.has(draft);
    let failure: unknown;
    try {
      if (!begun) {
        const skeleton = snapshot(draft, 'pending', PENDING_STATUS, { clientAddressOnly: true });
        await this.#deps.log.append(completeRecord(skeleton, completion));
        return true;
      }
      if (await this.#deps.log.complete(id, completion)) return true;
      failure = new Error('the pending record is gone');
    } catch (error) {
      failure = error;
    }
    // One refused operation, one line: a begin that failed has said so already.
    if (!this.#reported.has(draft)) this.#report('finish', draft, failure);
    if (completion.outcome === 'ok' && (begun || isSensitiveOperation(operation))) {
      throw new AuditUnavailableError('the outcome could not be recorded in the audit log', failure);
    }
    return false;
  }

  /**
   * Records, late, the outcome of a request whose record could not be stored when it was answered and
   * whose object was undone (docs/spec.md §9.2): the entry names the object and the response answered,
   * so every key the key server holds is named by the audit log. Tried again with a growing pause (the
   * store may be down, or its disk full, for a while) up to `LATE_RECORD_TRIES` times; answers whether
   * it was stored (or found stored already). Never throws.
   */
  async finishLate(draft: AuditDraft, response: { status: number; code?: string }): Promise<boolean> {
    let pause = LATE_RECORD_FIRST_PAUSE_MS;
    let failure: unknown;
    for (let attempt = 0; attempt < LATE_RECORD_TRIES; attempt += 1) {
      try {
        return await this.#storeLate(draft, response);
      } catch (error) {
        failure = error;
      }
      // The gateway's clock (docs/architecture.md): a test moves it rather than waiting.
      await this.#deps.clock.sleep(pause);
      pause = Math.min(pause * 2, LATE_RECORD_LONGEST_PAUSE_MS);
    }
    this.#report('late', draft, failure);
    return false;
  }

  /** One try of `finishLate`: the outcome entry of a begun record, else the whole record once. */
  async #storeLate(draft: AuditDraft, response: { status: number; code?: string }): Promise<boolean> {
    const completion = completionOf(draft, response, this.#deps.clock.now());
    if (this.#begun.has(draft)) {
      // False: the pending entry is completed already (its first write landed after all), or gone.
      await this.#deps.log.complete(draft.id, completion);
      return true;
    }
    try {
      await this.#deps.log.append(completeRecord(snapshot(draft, 'pending', PENDING_STATUS, { clientAddressOnly: true }), completion));
    } catch (error) {
      // The first write landed after all: the record is there.
      if (isKeygateError(error) && error.code === 'CONFLICT') return true;
      throw error;
    }
    return true;
  }

  #report(stage: 'begin' | 'finish' | 'late', draft: AuditDraft, error: unknown): void {
    this.#deps.logger.error('audit record not stored', {
      stage,
      auditId: draft.id,
      requestId: draft.requestId,
      operation: draft.operation,
      code: isKeygateError(error) ? error.code : undefined,
      cause: describe(isKeygateError(error) && error.cause !== undefined ? error.cause : error),
    });
  }
}

/**
 * The outcome of `draft` answered `response` at `at`: what `finish` and `finishLate` store. Written
 * out field by field, no spreads: this runs on every audited request (see `snapshot`).
 */
function completionOf(draft: AuditDraft, response: { status: number; code?: string }, at: number): AuditCompletion {
  return {
    outcome: outcomeForStatus(response.status),
    status: response.status,
    code: response.code,
    principal: draft.principal,
    sessionRef: draft.sessionRef,
    object: draft.object,
    actingFor: draft.actingFor,
    version: draft.version,
    items: draft.items,
    failures: draft.failures,
    keys: draft.keys,
    keysOmitted: draft.keysOmitted,
    alias: draft.alias,
    keyType: draft.keyType,
    alg: draft.alg,
    kid: draft.kid,
    context: draft.context,
    contexts: draft.contexts,
    contextsOmitted: draft.contextsOmitted,
    at,
  };
}

/**
 * How a late record (`AuditTrail.finishLate`) is retried: 12 tries, pausing 100 ms, then twice as long
 * each time up to 30 s: about two minutes in all, for a store that is down or a disk that is full.
 */
const LATE_RECORD_TRIES = 12;
const LATE_RECORD_FIRST_PAUSE_MS = 100;
const LATE_RECORD_LONGEST_PAUSE_MS = 30_000;

/**
 * Entries verified between two turns of the event loop: a page's read and MAC checks stay within a
 * few milliseconds, so requests served meanwhile wait no longer than that.
 */
const VERIFY_PAGE_SIZE = 100;

/** What the online verifier trusts: the deployment's MAC key and the checkpoint public keys by id. */
export interface AuditVerifyKeys {
  readonly macKey?: Uint8Array;
  readonly publicKeys: ReadonlyMap<string, KeyObject>;
  /** Heads kept outside the store: a whole-log verify reports a chain that ends below its witnessed head. */
  readonly witness?: AuditWitness;
}

/**
 * The reading side (GET /api/audit, GET /api/audit/{id}): whole pages or AUDIT_UNAVAILABLE, never less.
 * Who may read is the key server's to say: the caller's operations (its roles and its groups' roles,
 * as the key server knows them) must include `audit.read`, asked afresh on each read so a role taken
 * away stops the next one.
 */
export class AuditUseCases {
  readonly #deps: { log: AuditLog; keyServer: KeyServer; verifyKeys: AuditVerifyKeys };

  constructor(deps: { log: AuditLog; keyServer: KeyServer; verifyKeys?: AuditVerifyKeys }) {
    this.#deps = { ...deps, verifyKeys: deps.verifyKeys ?? { publicKeys: new Map() } };
  }

  /** One page, newest first. BAD_REQUEST for a malformed query, ROLE_DENIED without `audit.read`. */
  async queryAudit(caller: Caller, query: AuditQuery): Promise<AuditPage> {
    await this.#authorize(caller);
    return this.#read(() => this.#deps.log.query(query));
  }

  /** One record; NOT_FOUND when there is none with this id. */
  async getAuditRecord(caller: Caller, id: string): Promise<AuditRecord> {
    await this.#authorize(caller);
    const record = isAuditId(id) ? await this.#read(() => this.#deps.log.get(id)) : undefined;
    if (record === undefined) throw new NotFoundError(`no audit record ${id}`);
    return record;
  }

  /**
   * Verifies the chains of a time range (the whole log without one) under this gateway's audit key
   * and trusted checkpoint keys; `audit.read` like the other reads. The answer lists every break (at
   * most 100 per writer) and names the first.
   * The log is read and checked a page at a time, and the event loop turns between pages, so a long
   * log delays no other request by more than one page's work.
   */
  async verifyAudit(caller: Caller, range: AuditChainRange): Promise<AuditVerification> {
    await this.#authorize(caller);
    if (range.from !== undefined && range.to !== undefined && range.from > range.to) throw new BadRequestError('from: later than to');
    const keys = this.#deps.verifyKeys;
    const witnessed = await this.#witnessedHeads(range);
    return this.#read(async () => {
      const chain = await this.#deps.log.readChainPages(range, VERIFY_PAGE_SIZE);
      const verifier = new AuditLogVerifier({
        checkpoints: chain.checkpoints,
        partial: chain.partial,
        publicKeys: keys.publicKeys,
        witnessed,
        ...(keys.macKey === undefined ? {} : { macKey: keys.macKey }),
      });
      for await (const page of chain.pages) {
        verifier.add(page);
        await nextTurn();
      }
      return verifier.result();
    });
  }

  /** The witnessed heads, for the whole log only (a range need not reach a writer's head). */
  async #witnessedHeads(range: AuditChainRange): Promise<readonly WitnessedHead[]> {
    const witness = this.#deps.verifyKeys.witness;
    if (witness === undefined || range.from !== undefined || range.to !== undefined) return [];
    return this.#read(() => witness.heads());
  }

  /** ROLE_DENIED without `audit.read`, then OUT_OF_SCOPE for a scoped session (the key server's order). */
  async #authorize(caller: Caller): Promise<void> {
    const held = await withConnection(this.#deps.keyServer, caller, (connection) => connection.call('heldOperations', {}));
    requireHeld(held, 'audit.read');
  }

  /** A failure that is not one of ours is the store's: AUDIT_UNAVAILABLE, never an empty answer. */
  async #read<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw isKeygateError(error) ? error : new AuditUnavailableError(undefined, error);
    }
  }
}

function requireOperation(draft: AuditDraft): AuditDraft & { operation: string } {
  if (draft.operation === undefined) throw new Error('an audit draft needs its operation before it is stored');
  return draft as AuditDraft & { operation: string };
}

/**
 * The draft as a record with `outcome` and `status`; its optional fields only when defined (of the
 * subject, only `clientAddress` with `clientAddressOnly`). Plain assignments, no spreads: V8 of
 * Node 20 adds fields to a spread copy slowly (about a microsecond each), and this runs on every
 * audited request.
 */
function snapshot(draft: AuditDraft, outcome: AuditRecord['outcome'], status: number, { clientAddressOnly = false } = {}): AuditRecord {
  const { id, at, requestId, operation } = requireOperation(draft);
  type Writable = { -readonly [K in keyof AuditRecord]?: AuditRecord[K] };
  if (clientAddressOnly) {
    const skeleton: Writable = { id, at, requestId, operation, outcome, status };
    if (draft.clientAddress !== undefined) skeleton.clientAddress = draft.clientAddress;
    return skeleton as AuditRecord;
  }
  const record: Writable = { id, at, requestId, operation };
  if (draft.principal !== undefined) record.principal = draft.principal;
  if (draft.sessionRef !== undefined) record.sessionRef = draft.sessionRef;
  if (draft.object !== undefined) record.object = draft.object;
  if (draft.clientAddress !== undefined) record.clientAddress = draft.clientAddress;
  if (draft.actingFor !== undefined) record.actingFor = draft.actingFor;
  if (draft.version !== undefined) record.version = draft.version;
  if (draft.items !== undefined) record.items = draft.items;
  if (draft.failures !== undefined) record.failures = draft.failures;
  if (draft.keys !== undefined) record.keys = draft.keys;
  if (draft.keysOmitted !== undefined) record.keysOmitted = draft.keysOmitted;
  if (draft.alias !== undefined) record.alias = draft.alias;
  if (draft.keyType !== undefined) record.keyType = draft.keyType;
  if (draft.alg !== undefined) record.alg = draft.alg;
  if (draft.kid !== undefined) record.kid = draft.kid;
  if (draft.context !== undefined) record.context = draft.context;
  if (draft.contexts !== undefined) record.contexts = draft.contexts;
  if (draft.contextsOmitted !== undefined) record.contextsOmitted = draft.contextsOmitted;
  record.outcome = outcome;
  record.status = status;
  return record as AuditRecord;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
