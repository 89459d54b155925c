import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { ObservedAuditLog } from '../../src/adapters/audit-log/observed-audit-log.js';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { ObservedKeyServer } from '../../src/adapters/key-server/observed-key-server.js';
import { MemorySessionStore } from '../../src/adapters/session-store/memory-session-store.js';
import { KeyServerUnavailableError } from '../../src/domain/errors/index.js';
import type { AuditLog } from '../../src/ports/audit-log.port.js';
import type { KeyServer } from '../../src/ports/key-server.port.js';
import { HealthUseCases } from '../../src/use-cases/health.js';
import { auditStoreHealth, HealthSignal, keyServerHealth } from '../../src/use-cases/health-signal.js';

/** A key server that only counts pings and fails them on demand (a unit-test fake). */
function countingKeyServer() {
  const state = { pings: 0, down: false };
  const keyServer = {
    fingerprint: () => 'ab'.repeat(32),
    daemons: () => [],
    async ping() {
      state.pings++;
      if (state.down) throw new KeyServerUnavailableError('down');
    },
    async login() {
      if (state.down) throw new KeyServerUnavailableError('down');
      return {};
    },
  } as unknown as KeyServer;
  return { keyServer, state };
}

function countingAuditLog() {
  const log = new MemoryAuditLog();
  const state = { pings: 0 };
  const ping = log.ping.bind(log);
  log.ping = async () => {
    state.pings++;
    await ping();
  };
  return { log: log as AuditLog, state };
}

function subject() {
  const ks = countingKeyServer();
  const audit = countingAuditLog();
  const signals = { keyServer: new HealthSignal(), auditStore: new HealthSignal() };
  const keyServer = new ObservedKeyServer(ks.keyServer, [keyServerHealth(signals.keyServer)]);
  const auditLog = new ObservedAuditLog(audit.log, [auditStoreHealth(signals.auditStore)]);
  const health = new HealthUseCases({
    keyServer: ks.keyServer,
    store: new MemorySessionStore(new ManualClock()),
    auditLog: audit.log,
    version: '1',
    signals,
    maxAgeMs: 3_600_000,
  });
  return { health, keyServer, auditLog, ks, audit };
}

test('probes do no I/O: a hundred reports cost one background ping of each dependency', async (t) => {
  const { health, ks, audit } = subject();
  t.teardown(() => health.close());
  for (let i = 0; i < 100; i++) t.true((await health.report()).ok);
  t.is(ks.state.pings, 1);
  t.is(audit.state.pings, 1);
  t.is(health.probes, 100, 'probes are counted for metrics');
});

test("the gateway's own calls report a dependency down at once, and up again when one succeeds", async (t) => {
  const { health, keyServer, ks } = subject();
  t.teardown(() => health.close());
  t.is((await health.report()).checks.keyServer, 'ok');
  ks.state.down = true;
  await t.throwsAsync(keyServer.login('alice', undefined as never), { code: 'KEY_SERVER_UNAVAILABLE' });
  const down = await health.report();
  t.deepEqual({ ok: down.ok, keyServer: down.checks.keyServer }, { ok: false, keyServer: 'unavailable' });
  ks.state.down = false;
  await keyServer.login('alice', undefined as never);
  t.is((await health.report()).checks.keyServer, 'ok');
  t.is(ks.state.pings, 1, 'still no ping per probe');
});

test('an audit write that fails marks the audit store unavailable; a refused duplicate does not', async (t) => {
  const { health, auditLog } = subject();
  t.teardown(() => health.close());
  const record = { id: 'a'.repeat(32), at: 1, requestId: 'r', operation: 'keys.export', outcome: 'ok', status: 200 } as const;
  await auditLog.append(record);
  await t.throwsAsync(auditLog.append(record));
  t.is((await health.report()).checks.auditStore, 'ok', 'CONFLICT means the store answered');
  await auditLog.close();
  await t.throwsAsync(auditLog.append({ ...record, id: 'b'.repeat(32) }), { code: 'AUDIT_UNAVAILABLE' });
  t.is((await health.report()).checks.auditStore, 'unavailable');
});

test('a writer conflict seen by a background round says ok false with checks.writer "conflict" and its reason, and stays', async (t) => {
  const writers = { found: undefined as string | undefined };
  const health = new HealthUseCases({
    keyServer: countingKeyServer().keyServer,
    store: new MemorySessionStore(new ManualClock()),
    auditLog: countingAuditLog().log,
    version: '1',
    maxAgeMs: 10,
    writers: {
      conflict: () => writers.found,
      close: () => undefined,
    },
  });
  t.teardown(() => health.close());
  const before = await health.report();
  t.like(before, { ok: true, checks: { writer: 'ok' } });
  t.is(before.reasons, undefined);
  writers.found = 'audit database: the lock was replaced';
  let after = await health.report();
  for (let waited = 0; after.checks.writer === 'ok' && waited < 5_000; waited += 10) {
    await new Promise((done) => setTimeout(done, 10));
    after = await health.report();
  }
  t.like(after, {
    ok: false,
    checks: { keyServer: 'ok', auditStore: 'ok', sessionStore: 'ok', writer: 'conflict' },
    reasons: { writer: 'audit database: the lock was replaced' },
  });
  writers.found = undefined;
  await new Promise((done) => setTimeout(done, 50));
  t.like(await health.report(), { ok: false, checks: { writer: 'conflict' } }, 'once seen, a conflict stays');
});
