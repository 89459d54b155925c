import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { ENTRY_COLUMNS, type EntryRow, entryFromRow } from '../../src/adapters/audit-log/audit-sql.js';
import { entryHash } from '../../src/domain/audit/audit-entry.js';
import { auditCli, makeHistory, TAMPER_WRITER } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';

test.serial('sqlite: an auditor holding only the public key finds an ok entry edited to denied below a checkpoint', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-public-verify-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, {
    audit: { kind: 'sqlite', file },
    auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
  });
  await makeHistory(gw);
  await gw.close();

  const auditor = mkdtempSync(join(tmpdir(), 'keygate-auditor-'));
  t.teardown(() => rmSync(auditor, { recursive: true, force: true }));
  const pem = await auditCli(['public-key', '--data-dir', dir]);
  writeFileSync(join(auditor, 'checkpoint.pem'), String(pem.answer).replace(/^#.*\n/, ''));
  const verify = () => auditCli(['verify', '--sqlite', file, '--data-dir', auditor, '--public-key', join(auditor, 'checkpoint.pem')]);
  const clean = await verify();
  t.is(clean.status, 0, clean.stderr);

  const raw = new Database(file);
  t.teardown(() => raw.close());
  const { checkpointed } = raw.prepare('SELECT MAX(seq) AS checkpointed FROM audit_checkpoint WHERE writer = ?').get(TAMPER_WRITER) as {
    checkpointed: number;
  };
  const target = raw
    .prepare("SELECT seq FROM audit_entry WHERE writer = ? AND outcome = 'ok' AND seq < ? ORDER BY seq DESC LIMIT 1")
    .get(TAMPER_WRITER, checkpointed) as { seq: number };
  raw.prepare("UPDATE audit_entry SET outcome = 'denied', status = 403 WHERE writer = ? AND seq = ?").run(TAMPER_WRITER, target.seq);

  const edited = await verify();
  t.is(edited.status, 1, edited.stderr);
  t.regex(edited.stderr, /no MAC key/);
  t.like(edited.answer, { ok: false, firstBreak: { writer: TAMPER_WRITER, seq: target.seq, kind: 'edited' } });

  // The public hashes recomputed from the edit on: the checkpoint above still signed the old head.
  const rows = raw.prepare(`SELECT ${ENTRY_COLUMNS} FROM audit_entry WHERE writer = ? ORDER BY seq`).all(TAMPER_WRITER) as EntryRow[];
  let previous = '';
  for (const row of rows) {
    const hash = entryHash(previous, entryFromRow(row, Number(row.at)));
    raw.prepare('UPDATE audit_entry SET hash = ? WHERE writer = ? AND seq = ?').run(hash, TAMPER_WRITER, row.seq);
    previous = hash;
  }
  const rehashed = await verify();
  t.is(rehashed.status, 1, rehashed.stderr);
  t.like(rehashed.answer, { ok: false, firstBreak: { writer: TAMPER_WRITER, kind: 'edited' } });
  t.true(rehashed.answer.firstBreak.seq >= target.seq && rehashed.answer.firstBreak.seq <= checkpointed);
});
