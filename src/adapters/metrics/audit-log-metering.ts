import { AuditChainRegressedError } from '../../domain/audit/audit.errors.js';
import type { AuditWriteEnded, AuditWriteObserver } from '../../ports/audit-log.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/**
 * The metrics' observer of the audit log (plugged into src/adapters/audit-log/observed-audit-log.ts):
 * each write timed under its kind and whether it succeeded; a chain found regressed is counted apart.
 */
export function meterAuditWrites(metrics: Metrics): AuditWriteObserver {
  return function meterAuditWrite(ended: AuditWriteEnded): void {
    metrics.auditWrite(ended.kind, !ended.failed, ended.seconds);
    if (ended.error instanceof AuditChainRegressedError) metrics.auditChainRegressed();
  };
}
