import { AuditChainRegressedError } from '../../domain/audit/audit.errors.js';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
import type { AuditChainPages, AuditChainRange, AuditChainSlice } from '../../domain/audit/audit-entry.js';
import type { AuditPage, AuditQuery } from '../../domain/audit/audit-query.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/** An AuditLog that times its writes for the metrics; the port's shape and behaviour are unchanged. */
export class MeteredAuditLog implements AuditLog {
  constructor(
    private readonly inner: AuditLog,
    private readonly metrics: Metrics,
  ) {}

  append(record: AuditRecord): Promise<void> {
    return this.#timed('append', () => this.inner.append(record));
  }

  complete(id: string, completion: AuditCompletion): Promise<boolean> {
    return this.#timed('complete', () => this.inner.complete(id, completion));
  }

  get(id: string): Promise<AuditRecord | undefined> {
    return this.inner.get(id);
  }

  query(query: AuditQuery): Promise<AuditPage> {
    return this.inner.query(query);
  }

  readChain(range?: AuditChainRange): Promise<AuditChainSlice> {
    return this.inner.readChain(range);
  }

  readChainPages(range?: AuditChainRange, pageSize?: number): Promise<AuditChainPages> {
    return this.inner.readChainPages(range, pageSize);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async #timed<T>(kind: 'append' | 'complete', write: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await write();
      this.metrics.auditWrite(kind, true, (performance.now() - started) / 1e3);
      return result;
    } catch (error) {
      this.metrics.auditWrite(kind, false, (performance.now() - started) / 1e3);
      if (error instanceof AuditChainRegressedError) this.metrics.auditChainRegressed();
      throw error;
    }
  }
}
