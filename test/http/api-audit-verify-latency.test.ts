import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain, trusted, writeSqliteChain } from '../_support/audit-chain.js';
import { startGateway } from '../_support/gateway.js';

const ENTRIES = 100_000;
const BOUND_MS = 100;
/** The most a probe may be late by the machine alone (never by verify, which took seconds per probe before it streamed). */
const MACHINE_SLACK_MS = 500;

test(`/health and /api/health answer within ${BOUND_MS} ms while GET /api/audit/verify checks ${ENTRIES} SQLite entries`, async (t) => {
  t.timeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'keygate-verify-latency-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const keys = auditTestKeys();
  await writeSqliteChain(file, testChain('gw-old', keys), ENTRIES);
  const log = SqliteAuditLog.open({ file, chain: testChain('gw-1', keys) });
  const gw = await startGateway(t, {}, { auditLog: log, auditVerifyKeys: { macKey: keys.macKey, publicKeys: trusted(keys) } });
  const admin = { Authorization: `Bearer ${await gw.login('admin')}` };

  let answered = false;
  const began = performance.now();
  const verifying = gw.call('GET', '/api/audit/verify', { headers: admin }).finally(() => {
    answered = true;
  });
  // Probes one after another while verify runs; one that overlaps verify's answer counts too.
  const latencies: number[] = [];
  const statuses = new Set<number>();
  let late: number | undefined;
  while (!answered) {
    for (const path of ['/health', '/api/health']) {
      const started = performance.now();
      const reply = await gw.call('GET', path);
      const took = performance.now() - started;
      statuses.add(reply.status);
      if (answered) late = Math.max(late ?? 0, took);
      else latencies.push(took);
    }
  }
  const verified = await verifying;
  const verifyMs = performance.now() - began;
  t.is(verified.status, 200);
  t.is(verified.body.ok, true);
  t.deepEqual(
    verified.body.writers.find((w: { writer: string }) => w.writer === 'gw-old'),
    { writer: 'gw-old', entries: ENTRIES, lastSeq: ENTRIES, lastCheckpoint: ENTRIES },
  );
  const slowest = [...latencies, late ?? 0].sort((a, b) => b - a);
  t.log(
    `verify took ${(verifyMs / 1000).toFixed(1)} s; ${latencies.length} probes during it; slowest ${slowest
      .slice(0, 5)
      .map((ms) => ms.toFixed(0))
      .join(', ')} ms`,
  );
  t.true(latencies.length >= 20, 'verify was still running through many probes');
  // The bound holds for 99 in 100 probes; the rest may only be late by what the machine itself adds:
  // on two cores shared with other test files a process is preempted for tens of ms at random, while a
  // verify that held the event loop would hold every probe for seconds.
  const p99 = slowest[Math.floor(slowest.length / 100)]!;
  t.true(p99 < BOUND_MS, `99 in 100 probes within ${BOUND_MS} ms; the 99th percentile took ${p99.toFixed(0)} ms`);
  t.true(slowest[0]! < MACHINE_SLACK_MS, `the slowest probe took ${slowest[0]!.toFixed(0)} ms`);
  t.deepEqual([...statuses], [200], 'every probe was answered 200');
});
