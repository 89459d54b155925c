import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { signIn } from '../_support/api-client.js';
import { auditCli, makeHistory, TAMPER_WRITER } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';

/** A gateway on SQLite with metrics, a history, and a raw connection to its file (the attacker's). */
async function recorded(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-truncate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, {
    metricsPort: 0,
    audit: { kind: 'sqlite', file },
    auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
  });
  const admin = await makeHistory(gw);
  const raw = new Database(file, { timeout: 0 });
  t.teardown(() => raw.close());
  return { gw, admin, raw, dir, file };
}

/** Deletes the newest entries and every checkpoint above what is left, as one with write access but no key. */
function truncate(raw: Database.Database): number {
  const { seq } = raw.prepare('SELECT MAX(seq) AS seq FROM audit_entry WHERE writer = ?').get(TAMPER_WRITER) as { seq: number };
  const keep = seq - 6;
  raw.prepare('DELETE FROM audit_entry WHERE writer = ? AND seq > ?').run(TAMPER_WRITER, keep);
  raw.prepare('DELETE FROM audit_checkpoint WHERE writer = ? AND seq > ?').run(TAMPER_WRITER, keep);
  return keep;
}

/** Holds the write lock until one of the gateway's commits has failed on it, then lets go. */
async function failOneCommit(t: ExecutionContext, raw: Database.Database, write: () => Promise<{ status: number }>): Promise<void> {
  raw.exec('BEGIN IMMEDIATE');
  try {
    const refused = await write();
    t.is(refused.status, 503, 'the commit that met the lock failed');
  } finally {
    raw.exec('COMMIT');
  }
}

test.serial(
  'sqlite: a writer whose newest entries were deleted behind a failed commit refuses to extend the shorter chain, and says so',
  async (t) => {
    const { gw, admin, raw } = await recorded(t);
    const alice = await signIn(gw, 'alice');
    truncate(raw);
    await failOneCommit(t, raw, () => alice.post('/api/keys', {}));

    const after = await alice.post('/api/keys', {});
    t.is(after.status, 503, 'the writer does not extend the shortened chain');
    t.is(after.body.code, 'AUDIT_UNAVAILABLE');
    const health = await gw.call('GET', '/api/health');
    t.is(health.status, 503);
    t.like(health.body, { ok: false, checks: { auditStore: 'unavailable' } });
    t.regex(health.body.reasons?.auditStore ?? '', /chain.*(regress|went back)/i);
    t.true(
      gw.logger.lines.some((line) => line.level === 'error' && /audit chain regressed/.test(line.message)),
      'an error line names the regression',
    );
    const scrape = await (await fetch(gw.gateway.metricsUrl()!)).text();
    t.regex(scrape, /keygate_audit_chain_regressions_total [1-9]/);
    const verify = await gw.call('GET', '/api/audit/verify', { headers: admin });
    t.like(verify.body, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'truncated' } });
  },
);

test.serial('sqlite: verify names a truncation with every checkpoint above it removed, by the witnessed head', async (t) => {
  const { gw, admin, raw, dir, file } = await recorded(t);
  const kept = truncate(raw);
  const offline = await auditCli(['verify', '--sqlite', file, '--data-dir', dir]);
  t.is(offline.status, 1, offline.stderr);
  t.like(offline.answer, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'truncated' } });
  t.true(offline.answer.firstBreak.seq > kept);
  t.regex(offline.answer.firstBreak.detail, /witness/);
  const online = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.like(online.body, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'truncated', seq: offline.answer.firstBreak.seq } });
});
