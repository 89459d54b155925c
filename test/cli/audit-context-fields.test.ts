import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain } from '../_support/audit-chain.js';
import { auditCli } from '../_support/audit-tampering.js';
import { auditRecord } from '../ports/audit-log.contract.js';

/** The widest context §4.5b item 1 lets through: 16 members, a value of 256 characters, non-BMP text. */
const WIDEST = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`m${String(i).padStart(2, '0')}`, `v${i}`]));
WIDEST.m00 = 'x'.repeat(256);
WIDEST.m15 = 'acme \u{1F511}';

/**
 * A SQLite audit log whose chain holds an entry written before the context fields existed beside a
 * data key's record and a batch's (docs/spec.md §9.1 `context`, `contexts`, `contextsOmitted`), and the
 * keys `keygate audit` verifies it with.
 */
async function contextHistory(dir: string) {
  const keys = auditTestKeys();
  const file = join(dir, 'audit.db');
  const log = SqliteAuditLog.open({ file, chain: testChain('gw-ctx', keys, { checkpointEvery: 2 }) });
  await log.append(auditRecord({ operation: 'keys.get', at: Date.UTC(2026, 0, 1) }));
  const batch = { operation: 'crypto.decrypt', items: 30, failures: 0, contexts: [{ tenant: 'a' }, { tenant: 'b' }], contextsOmitted: 3 };
  await log.append(auditRecord({ ...batch, at: Date.UTC(2026, 0, 1, 0, 0, 1) }));
  const pending = auditRecord({ operation: 'crypto.datakey.open', outcome: 'pending', status: 0, at: Date.UTC(2026, 0, 1, 0, 0, 2) });
  await log.append(pending);
  await log.complete(pending.id, { outcome: 'ok', status: 200, version: 2, context: WIDEST });
  await log.close();
  const keyFile = join(dir, 'audit-mac.key');
  writeFileSync(keyFile, keys.macKey.toString('base64'), { mode: 0o600 });
  const publicKey = join(dir, 'checkpoint.pem');
  writeFileSync(publicKey, keys.signingKey.publicKey.export({ type: 'spki', format: 'pem' }));
  return { file, keyFile, publicKey };
}

test("keygate audit export carries a context and a batch's contexts, and verify --file holds each value to the MAC", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-context-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { file, keyFile, publicKey } = await contextHistory(dir);
  const keyArgs = ['--data-dir', dir, '--key-file', keyFile, '--public-key', publicKey];
  const direct = await auditCli(['verify', '--sqlite', file, ...keyArgs]);
  t.is(direct.status, 0, direct.stderr);
  t.like(direct.answer, { ok: true, checked: 4 });

  const exported = join(dir, 'export.jsonl');
  const run = await auditCli(['export', '--format', 'jsonl', '--sqlite', file, '--out', exported]);
  t.is(run.status, 0, run.stderr);
  const lines = readFileSync(exported, 'utf8').trim().split('\n');
  const entries = lines.map((line) => JSON.parse(line));
  const outcome = entries.find((value) => value.entry === 'outcome');
  t.deepEqual(outcome.context, WIDEST);
  t.like(
    entries.find((value) => value.operation === 'crypto.decrypt'),
    { contexts: [{ tenant: 'a' }, { tenant: 'b' }], contextsOmitted: 3 },
  );
  const offline = await auditCli(['verify', '--file', exported, ...keyArgs]);
  t.is(offline.status, 0, offline.stderr);
  t.like(offline.answer, { ok: true, checked: 4 });

  // One character of one value (JSON writes the non-BMP one as is), and one batch's context: each is
  // an edit the MAC finds.
  const edits: [string, string, string][] = [
    ['the outcome', 'acme \u{1F511}', 'acme \u{1F512}'],
    ['the batch', '{"tenant":"b"}', '{"tenant":"c"}'],
  ];
  for (const [what, from, to] of edits) {
    const tampered = join(dir, 'tampered.jsonl');
    const edited = lines.map((line) => line.replace(from, to));
    t.notDeepEqual(edited, lines, what);
    writeFileSync(tampered, edited.join('\n'));
    const caught = await auditCli(['verify', '--file', tampered, ...keyArgs]);
    t.is(caught.status, 1, caught.stderr);
    const seq = entries.find((value) => (what === 'the outcome' ? value.entry === 'outcome' : value.operation === 'crypto.decrypt')).seq;
    t.like(caught.answer, { ok: false, firstBreak: { writer: 'gw-ctx', seq, kind: 'edited' } }, what);
  }
});
