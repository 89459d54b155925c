import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { signIn } from '../_support/api-client.js';
import { auditCli, makeHistory, TAMPER_WRITER } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const check = testUnless(postgres.reason).serial;
let schemas = 0;

/** A gateway recording into its own schema, a history, and a raw connection to the schema (the attacker's). */
async function recorded(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-truncate-pg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const schema = `truncate_${process.pid}_${schemas++}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 1_500 };
  const gw = await startGateway(t, { audit, auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 } });
  const admin = await makeHistory(gw);
  const raw = new pg.Client({ connectionString: postgres.url! });
  await raw.connect();
  t.teardown(() => raw.end());
  await raw.query(`SET search_path TO "${schema}"`);
  const cli = (extra: string[] = ['--data-dir', dir]) => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, ...extra]);
  return { gw, admin, raw, dir, cli };
}

/** Deletes the newest entries and every checkpoint above what is left. */
async function truncate(raw: pg.Client): Promise<number> {
  const { rows } = await raw.query('SELECT MAX(seq) AS seq FROM audit_entry WHERE writer = $1', [TAMPER_WRITER]);
  const keep = Number(rows[0].seq) - 6;
  await raw.query('DELETE FROM audit_entry WHERE writer = $1 AND seq > $2', [TAMPER_WRITER, keep]);
  await raw.query('DELETE FROM audit_checkpoint WHERE writer = $1 AND seq > $2', [TAMPER_WRITER, keep]);
  return keep;
}

check('postgres: a writer whose newest entries were deleted behind a failed write refuses to extend the shorter chain', async (t) => {
  const { gw, admin, raw, cli } = await recorded(t);
  const alice = await signIn(gw, 'alice');
  await truncate(raw);
  // A lock held past the gateway's lock timeout: one write fails, and the writer reads its head again.
  await raw.query('BEGIN');
  await raw.query('LOCK TABLE audit_entry IN EXCLUSIVE MODE');
  try {
    t.is((await alice.post('/api/keys', {})).status, 503);
  } finally {
    await raw.query('COMMIT');
  }
  const after = await alice.post('/api/keys', {});
  t.is(after.status, 503, 'the writer does not extend the shortened chain');
  t.is(after.body.code, 'AUDIT_UNAVAILABLE');
  const health = await gw.call('GET', '/api/health');
  t.like(health.body, { ok: false, checks: { auditStore: 'unavailable' } });
  t.regex(health.body.reasons?.auditStore ?? '', /chain regressed/);
  t.true(gw.logger.lines.some((line) => line.level === 'error' && /audit chain regressed/.test(line.message)));
  const offline = await cli();
  t.like(offline.answer, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'truncated' } });
  const online = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.like(online.body, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'truncated' } });
});

check('postgres: an auditor holding only the public key finds an ok entry edited to denied below a checkpoint', async (t) => {
  const { dir, raw, cli } = await recorded(t);
  const auditor = mkdtempSync(join(tmpdir(), 'keygate-auditor-pg-'));
  t.teardown(() => rmSync(auditor, { recursive: true, force: true }));
  const pem = await auditCli(['public-key', '--data-dir', dir]);
  writeFileSync(join(auditor, 'checkpoint.pem'), String(pem.answer).replace(/^#.*\n/, ''));
  const publicOnly = ['--data-dir', auditor, '--public-key', join(auditor, 'checkpoint.pem')];
  t.is((await cli(publicOnly)).status, 0);
  const { rows } = await raw.query('SELECT MAX(seq) AS seq FROM audit_checkpoint WHERE writer = $1', [TAMPER_WRITER]);
  const target = await raw.query(
    "SELECT seq FROM audit_entry WHERE writer = $1 AND outcome = 'ok' AND seq < $2 ORDER BY seq DESC LIMIT 1",
    [TAMPER_WRITER, rows[0].seq],
  );
  const seq = Number(target.rows[0].seq);
  await raw.query("UPDATE audit_entry SET outcome = 'denied', status = 403 WHERE writer = $1 AND seq = $2", [TAMPER_WRITER, seq]);
  const edited = await cli(publicOnly);
  t.is(edited.status, 1, edited.stderr);
  t.like(edited.answer, { ok: false, firstBreak: { writer: TAMPER_WRITER, seq, kind: 'edited' } });
});
