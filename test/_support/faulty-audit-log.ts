import { AuditUnavailableError } from '../../src/domain/audit/audit.errors.js';
import type { AuditCompletion, AuditRecord } from '../../src/domain/audit/audit.js';
import type { AuditChainRange } from '../../src/domain/audit/audit-entry.js';
import type { AuditQuery } from '../../src/domain/audit/audit-query.js';
import type { AuditLog } from '../../src/ports/audit-log.port.js';

/** Faults a test can switch on, to prove the fail-closed paths. */
export interface AuditFaults {
  /** The store takes nothing and answers nothing (a stopped database). */
  down?: boolean;
  /** Pending records are taken, but their completion fails (the database dies mid-request). */
  failComplete?: boolean;
  /** Reads fail with an exception that is not ours (a bug in a store). */
  crashReads?: boolean;
  /**
   * Records it picks are appended holding a value no store can keep (`items: true`: SQLite cannot bind
   * it, PostgreSQL's integer column refuses it), so their row fails inside a group commit.
   */
  unstorable?: (record: AuditRecord) => boolean;
}

/** Wraps a real audit log and injects the switched-on faults. */
export class FaultyAuditLog implements AuditLog {
  readonly faults: AuditFaults = {};
  /** The completions a fault refused, as the gateway sent them (the object a refused creation made). */
  readonly refusedCompletions: AuditCompletion[] = [];
  readonly #inner: AuditLog;

  constructor(inner: AuditLog) {
    this.#inner = inner;
  }

  append(record: AuditRecord): Promise<void> {
    const stored = this.faults.unstorable?.(record) ? ({ ...record, items: true } as unknown as AuditRecord) : record;
    return this.#unless(this.faults.down, () => this.#inner.append(stored));
  }

  complete(id: string, completion: AuditCompletion): Promise<boolean> {
    const refused = this.faults.down || this.faults.failComplete;
    if (refused) this.refusedCompletions.push(completion);
    return this.#unless(refused, () => this.#inner.complete(id, completion));
  }

  get(id: string) {
    return this.#unless(this.faults.down, () => this.#crashing(() => this.#inner.get(id)));
  }

  query(query: AuditQuery) {
    return this.#unless(this.faults.down, () => this.#crashing(() => this.#inner.query(query)));
  }

  readChain(range?: AuditChainRange) {
    return this.#unless(this.faults.down, () => this.#crashing(() => this.#inner.readChain(range)));
  }

  readChainPages(range?: AuditChainRange, pageSize?: number) {
    return this.#unless(this.faults.down, () => this.#crashing(() => this.#inner.readChainPages(range, pageSize)));
  }

  ping(): Promise<void> {
    return this.#unless(this.faults.down, () => this.#inner.ping());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #crashing<T>(operation: () => Promise<T>): Promise<T> {
    if (this.faults.crashReads) throw new TypeError("Cannot read properties of undefined (reading 'rows')");
    return operation();
  }

  async #unless<T>(fault: boolean | undefined, operation: () => Promise<T>): Promise<T> {
    if (fault) throw new AuditUnavailableError('the audit database failed', new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    return operation();
  }
}
