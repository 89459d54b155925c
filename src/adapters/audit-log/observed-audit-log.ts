import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import type { AuditChainPages, AuditChainRange, AuditChainSlice } from '../../domain/audit/audit-entry.js';
import type { AuditPage, AuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog, AuditWriteEnded, AuditWriteObserver } from '../../ports/audit-log.port.js';
import { observedCall } from '../observed-call.js';

/**
 * The one decorator that watches the audit log, as ObservedKeyServer watches the key server: each
 * write (append, complete) is timed once and its end told to every observer, in order: the metrics
 * (src/adapters/metrics/audit-log-metering.ts) and the health check (src/use-cases/health-signal.ts).
 * Records are never looked at; reads pass through untouched. The port's shape and behaviour are unchanged.
 */
export class ObservedAuditLog implements AuditLog {
  readonly #inner: AuditLog;
  readonly #observers: readonly AuditWriteObserver[];

  constructor(inner: AuditLog, observers: readonly AuditWriteObserver[]) {
    this.#inner = inner;
    this.#observers = observers;
  }

  append(record: AuditRecord): Promise<void> {
    return this.#observed('append', () => this.#inner.append(record));
  }

  complete(id: string, completion: AuditCompletion): Promise<boolean> {
    return this.#observed('complete', () => this.#inner.complete(id, completion));
  }

  get(id: string): Promise<AuditRecord | undefined> {
    return this.#inner.get(id);
  }

  query(query: AuditQuery): Promise<AuditPage> {
    return this.#inner.query(query);
  }

  readChain(range?: AuditChainRange): Promise<AuditChainSlice> {
    return this.#inner.readChain(range);
  }

  readChainPages(range?: AuditChainRange, pageSize?: number): Promise<AuditChainPages> {
    return this.#inner.readChainPages(range, pageSize);
  }

  ping(): Promise<void> {
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #observed<T>(kind: AuditWriteEnded['kind'], write: () => Promise<T>): Promise<T> {
    return observedCall(this.#observers, { kind }, write);
  }
}
