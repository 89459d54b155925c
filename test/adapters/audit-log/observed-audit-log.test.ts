import test from 'ava';
import { MemoryAuditLog } from '../../../src/adapters/audit-log/memory-audit-log.js';
import { ObservedAuditLog } from '../../../src/adapters/audit-log/observed-audit-log.js';
import { meterAuditWrites } from '../../../src/adapters/metrics/audit-log-metering.js';
import { AuditChainRegressedError, AuditUnavailableError } from '../../../src/domain/audit/audit.errors.js';
import type { AuditRecord } from '../../../src/domain/audit/audit.js';
import type { AuditLog } from '../../../src/ports/audit-log.port.js';
import type { Metrics } from '../../../src/ports/metrics.port.js';
import { auditStoreHealth, HealthSignal } from '../../../src/use-cases/health-signal.js';

/** Metrics that keep what they were told of audit writes (a unit-test fake). */
function recordingMetrics() {
  const seen = { writes: [] as string[], regressions: 0 };
  const metrics: Metrics = {
    requestObserved() {},
    keyServerCall() {},
    auditWrite(kind, ok) {
      seen.writes.push(`${kind} ${ok ? 'ok' : 'failed'}`);
    },
    auditChainRegressed() {
      seen.regressions += 1;
    },
    healthProbe() {},
    loginThrottled() {},
  };
  return { metrics, seen };
}

/** An audit log whose appends fail with `error` (a unit-test fake). */
function failingLog(error: Error): AuditLog {
  const log = new MemoryAuditLog();
  log.append = async () => {
    throw error;
  };
  return log;
}

const record = (id: string) => ({ id, at: 1, requestId: 'r', operation: 'keys.create', outcome: 'pending' }) as unknown as AuditRecord;

test('one decorator tells the metrics and the health check how each write ended, and hands the outcome on', async (t) => {
  const { metrics, seen } = recordingMetrics();
  const signal = new HealthSignal();
  const refused = new AuditUnavailableError('disk full');
  const log = new ObservedAuditLog(failingLog(refused), [meterAuditWrites(metrics), auditStoreHealth(signal, { downOnly: true })]);
  t.is(await t.throwsAsync(log.append(record('a'))), refused);
  t.deepEqual(seen.writes, ['append failed']);
  t.false(signal.ok, 'AUDIT_UNAVAILABLE is the store down');
  t.is(seen.regressions, 0);
});

test('a chain found regressed is counted apart, besides the failed write', async (t) => {
  const { metrics, seen } = recordingMetrics();
  const log = new ObservedAuditLog(failingLog(new AuditChainRegressedError('store behind')), [meterAuditWrites(metrics)]);
  await t.throwsAsync(log.append(record('a')));
  t.deepEqual(seen.writes, ['append failed']);
  t.is(seen.regressions, 1);
});

test('with downOnly, a write that succeeded tells the health check nothing; without it, up', async (t) => {
  const downOnly = new HealthSignal();
  const every = new HealthSignal();
  const log = new ObservedAuditLog(new MemoryAuditLog(), [auditStoreHealth(downOnly, { downOnly: true }), auditStoreHealth(every)]);
  await log.append(record('a'));
  t.is(downOnly.version, 0);
  t.is(every.version, 1);
  t.true(every.ok);
});
