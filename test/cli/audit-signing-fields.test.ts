import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain } from '../_support/audit-chain.js';
import { auditCli } from '../_support/audit-tampering.js';
import { auditRecord } from '../ports/audit-log.contract.js';

const KID = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';

/**
 * A SQLite audit log whose chain holds entries written before the signing fields existed beside a
 * signature's record (docs/spec.md §9.1 `keyType`, `alg`, `kid`), and the keys `keygate audit` verifies it with.
 */
async function signedHistory(dir: string) {
  const keys = auditTestKeys();
  const file = join(dir, 'audit.db');
  const log = SqliteAuditLog.open({ file, chain: testChain('gw-sign', keys, { checkpointEvery: 2 }) });
  await log.append(auditRecord({ operation: 'keys.get', at: Date.UTC(2026, 0, 1) }));
  await log.append(auditRecord({ operation: 'crypto.encrypt', alias: 'billing', version: 1, at: Date.UTC(2026, 0, 1, 0, 0, 1) }));
  const pending = auditRecord({ operation: 'crypto.sign', outcome: 'pending', status: 0, at: Date.UTC(2026, 0, 1, 0, 0, 2) });
  await log.append(pending);
  await log.complete(pending.id, { outcome: 'ok', status: 200, version: 2, keyType: 'ec-p256', alg: 'ES256', kid: KID });
  await log.close();
  const keyFile = join(dir, 'audit-mac.key');
  writeFileSync(keyFile, keys.macKey.toString('base64'), { mode: 0o600 });
  const publicKey = join(dir, 'checkpoint.pem');
  writeFileSync(publicKey, keys.signingKey.publicKey.export({ type: 'spki', format: 'pem' }));
  return { file, keyFile, publicKey };
}

test("keygate audit export carries a signature's type, alg and kid, and verify --file holds them to the MAC", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-signing-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { file, keyFile, publicKey } = await signedHistory(dir);
  const keyArgs = ['--data-dir', dir, '--key-file', keyFile, '--public-key', publicKey];
  const direct = await auditCli(['verify', '--sqlite', file, ...keyArgs]);
  t.is(direct.status, 0, direct.stderr);
  t.like(direct.answer, { ok: true, checked: 4 });

  const exported = join(dir, 'export.jsonl');
  const run = await auditCli(['export', '--format', 'jsonl', '--sqlite', file, '--out', exported]);
  t.is(run.status, 0, run.stderr);
  const lines = readFileSync(exported, 'utf8').trim().split('\n');
  const outcome = lines.map((line) => JSON.parse(line)).find((value) => value.entry === 'outcome');
  t.like(outcome, { operation: 'crypto.sign', version: 2, keyType: 'ec-p256', alg: 'ES256', kid: KID });
  const offline = await auditCli(['verify', '--file', exported, ...keyArgs]);
  t.is(offline.status, 0, offline.stderr);
  t.like(offline.answer, { ok: true, checked: 4 });

  const tampered = join(dir, 'tampered.jsonl');
  writeFileSync(tampered, lines.map((line) => (line.includes(KID) ? line.replace(KID, `${KID.slice(0, -1)}Y`) : line)).join('\n'));
  const caught = await auditCli(['verify', '--file', tampered, ...keyArgs]);
  t.is(caught.status, 1, caught.stderr);
  t.like(caught.answer, { ok: false, firstBreak: { writer: 'gw-sign', seq: outcome.seq, kind: 'edited' } });
});
