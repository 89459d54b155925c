import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain, trusted, writeSqliteChain } from '../_support/audit-chain.js';
import { startGateway } from '../_support/gateway.js';

const ENTRIES = 20_000;

/**
 * How fast the probes answer during a verify is a figure of `npm run bench` (group `audit-verify`);
 * here, that they are answered, 200, many times over while a verify runs, which a verify holding the
 * event loop would not allow.
 */
test(`/health and /api/health keep answering while GET /api/audit/verify checks ${ENTRIES} SQLite entries`, async (t) => {
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
  let probes = 0;
  const statuses = new Set<number>();
  while (!answered) {
    for (const path of ['/health', '/api/health']) {
      const reply = await gw.call('GET', path);
      statuses.add(reply.status);
      if (!answered) probes += 1;
    }
  }
  const verified = await verifying;
  const verifyMs = performance.now() - began;
  t.is(verified.status, 200);
  t.is(verified.body.ok, true);
  t.deepEqual(
    verified.body.writers.find((w: { writer: string }) => w.writer === 'gw-old'),
    { writer: 'gw-old', entries: ENTRIES, lastSeq: ENTRIES, lastCheckpoint: ENTRIES, breaks: 0, unlisted: 0 },
  );
  t.log(`verify took ${(verifyMs / 1000).toFixed(1)} s; ${probes} probes during it`);
  t.true(probes >= 20, 'verify was still running through many probes');
  t.deepEqual([...statuses], [200], 'every probe was answered 200');
});
