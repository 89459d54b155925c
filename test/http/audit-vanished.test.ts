import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import Database from 'better-sqlite3';
import { createKey, signIn } from '../_support/api-client.js';
import { auditCli } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';

test('an audit database unlinked under a gateway taking key writes refuses every key write after it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-vanished-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, { audit: { kind: 'sqlite', file }, auditIntegrity: { writer: 'gw-a', dataDir: dir } });
  const alice = await signIn(gw, 'alice');
  await createKey(alice);
  // Writes in flight while the file goes: every one answered after the unlink must be refused.
  const burst = Array.from({ length: 20 }, () => alice.post('/api/keys', {}));
  unlinkSync(file);
  const after = [...(await Promise.all(burst)), ...(await Promise.all(Array.from({ length: 10 }, () => alice.post('/api/keys', {}))))];
  for (const reply of after) {
    t.is(reply.status, 503);
    t.is(reply.body.code, 'AUDIT_UNAVAILABLE');
  }
});

test('a gateway whose earlier audit chain vanished refuses to boot without --new-audit-chain, and begins a new writer with it while the loss stays reported', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-audit-reboot-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { TE_GATEWAY_DATA_DIR: dir };
  const first = await spawnGateway(t, env);
  // Audited requests: the chain starts, and its head is witnessed beside the keys.
  for (let i = 0; i < 3; i += 1) await call(first.url, 'POST', '/login', { body: { user: 'nobody', password: 'wrong-password' } });
  t.is(await first.stop(), 0);
  t.true(existsSync(join(dir, 'audit-head.json')));
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `audit.db${suffix}`), { force: true });

  const refused = await spawnGateway(t, env).then(
    () => undefined,
    (error: Error) => error.message,
  );
  t.truthy(refused, 'the gateway did not start');
  t.regex(refused!, /audit chain regressed/);
  t.regex(refused!, /--new-audit-chain/);
  t.false(existsSync(join(dir, 'audit.db')) && hasEntries(join(dir, 'audit.db')), 'no new chain was begun');

  const renewed = await spawnGateway(t, env, ['--new-audit-chain']);
  await call(renewed.url, 'POST', '/login', { body: { user: 'nobody', password: 'wrong-password' } });
  t.is(await renewed.stop(), 0);
  // The new chain is a writer of its own and verifies; the vanished one stays reported (docs/spec.md §9.6).
  const verify = await auditCli(['verify', '--data-dir', dir]);
  t.is(verify.status, 1, verify.stderr);
  const writer = readFileSync(join(dir, 'audit-writer'), 'utf8').trim();
  t.like(verify.answer, { ok: false, firstBreak: { writer, kind: 'truncated' } });
  t.like(verify.answer.writers, [
    { writer, entries: 0, breaks: 1 },
    { writer: `${writer}~2`, breaks: 0 },
  ]);
  t.true(verify.answer.checked >= 2, 'the restart entry and the login');
});

function hasEntries(file: string): boolean {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM audit_entry').get() as { n: number }).n > 0;
  } catch {
    return false;
  } finally {
    db.close();
  }
}
