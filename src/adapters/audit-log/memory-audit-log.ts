import { completeRecord, type AuditCompletion, type AuditRecord } from '../../domain/audit/audit.js';
import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { compareNewestFirst, matchesAuditQuery, pageOf, resolveAuditQuery, type AuditPage, type AuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';

/**
 * Audit records in this process's memory: for tests and for an embedding service that forwards its
 * records elsewhere. Nothing survives a restart.
 */
export class MemoryAuditLog implements AuditLog {
  readonly #records = new Map<string, AuditRecord>();
  #closed = false;

  async append(record: AuditRecord): Promise<void> {
    this.#open();
    if (this.#records.has(record.id)) throw new AuditRecordExistsError(record.id);
    this.#records.set(record.id, { ...record });
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    this.#open();
    const record = this.#records.get(id);
    if (record === undefined || record.outcome !== 'pending') return false;
    this.#records.set(id, completeRecord(record, completion));
    return true;
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    this.#open();
    const record = this.#records.get(id);
    return record === undefined ? undefined : { ...record };
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    const resolved = resolveAuditQuery(query);
    this.#open();
    const matching = [...this.#records.values()].filter((record) => matchesAuditQuery(record, resolved));
    matching.sort(compareNewestFirst);
    return pageOf(
      matching.slice(0, resolved.limit + 1).map((record) => ({ ...record })),
      resolved.limit,
    );
  }

  async ping(): Promise<void> {
    this.#open();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new AuditUnavailableError('the audit log is closed');
  }
}
