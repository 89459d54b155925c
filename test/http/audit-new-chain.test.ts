import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { auditCli } from '../_support/audit-tampering.js';
import { clientKeyPair } from '../_support/client-key.js';
import { type GatewayProcess, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';

/**
 * `keygate serve --new-audit-chain` (docs/spec.md §9.6) begins a new writer, whose first entry records
 * the loss; the old witnessed head stays, and verify keeps reporting the removed tail (an export
 * record among it), through the CLI and the endpoint. Real gateway processes on one data directory.
 */

const PASSWORD = 'chain-admin-password-1';

/** An admin session's headers: for the root surface, and for /api. */
async function admin(gateway: GatewayProcess): Promise<{ root: Record<string, string>; api: Record<string, string> }> {
  const reply = await call(gateway.url, 'POST', '/login', { body: { user: 'admin', password: PASSWORD } });
  if (reply.status !== 200) throw new Error(`login: ${reply.status} ${reply.text}`);
  const session = reply.body.sessionId as string;
  return { root: { 'X-Session': session }, api: { Authorization: `Bearer ${session}` } };
}

function setUp(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-new-chain-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const passwordFile = join(dir, 'admin-password');
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  const data = join(dir, 'data');
  return { data, env: { TE_GATEWAY_DATA_DIR: data, TE_KEYSERVER_ADMIN_PASSWORD_FILE: passwordFile } };
}

test('a tail deleted from a SQLite audit stays reported after --new-audit-chain, whose first entry records the restart', async (t) => {
  const { data, env } = setUp(t);
  const first = await spawnGateway(t, env);
  const session = (await admin(first)).root;
  const made = await call(first.url, 'POST', '/keys', { headers: session });
  t.is(made.status, 200);
  const exported = await call(first.url, 'POST', '/keys/export', {
    headers: session,
    body: { ttag: made.body.ttag, clientPubKey: clientKeyPair().publicKey },
  });
  t.is(exported.status, 200);
  t.is((await call(first.url, 'POST', '/keys', { headers: session })).status, 200);
  t.is(await first.stop(), 0);

  const writer = readFileSync(join(data, 'audit-writer'), 'utf8').trim();
  const heads = () => JSON.parse(readFileSync(join(data, 'audit-head.json'), 'utf8')) as { writer: string; seq: number; mac: string }[];
  const witnessed = heads().find((head) => head.writer === writer)!;
  // Someone with the database deletes everything from the export on, with the checkpoints above it.
  const db = new Database(join(data, 'audit.db'));
  const cut = (
    db.prepare("SELECT MIN(seq) AS seq FROM audit_entry WHERE writer = ? AND operation = 'keys.export'").get(writer) as { seq: number }
  ).seq;
  db.prepare('DELETE FROM audit_entry WHERE writer = ? AND seq >= ?').run(writer, cut);
  db.prepare('DELETE FROM audit_checkpoint WHERE writer = ? AND seq >= ?').run(writer, cut);
  db.close();
  t.true(witnessed.seq >= cut + 1, 'the witness saw the export and what followed');

  const refused = await spawnGateway(t, env).then(
    () => 'started',
    (error: Error) => error.message,
  );
  t.regex(refused, /audit chain regressed/);
  t.regex(refused, /--new-audit-chain/);

  const renewed = await spawnGateway(t, env, ['--new-audit-chain']);
  const again = (await admin(renewed)).api;
  const expected = { writer, seq: witnessed.seq, kind: 'truncated' };
  const online = await call(renewed.url, 'GET', '/api/audit/verify', { headers: again });
  t.is(online.status, 200);
  t.like(online.body, { ok: false, firstBreak: expected });
  const lost = online.body.breaks.find((found: { writer: string }) => found.writer === writer);
  t.like(lost, expected);
  t.regex(lost.detail, new RegExp(`seq ${cut} to ${witnessed.seq} were removed.*writer ${writer}~2 began a new chain`));
  t.deepEqual(
    online.body.writers.map((w: { writer: string; breaks: number }) => [w.writer, w.breaks]),
    [
      [writer, 1],
      [`${writer}~2`, 0],
    ],
    'the new chain is a writer of its own, and it verifies',
  );
  const restarts = await call(renewed.url, 'GET', '/api/audit?operation=audit.chainRestarted', { headers: again });
  t.is(restarts.status, 200);
  t.is(restarts.body.items.length, 1);
  t.deepEqual(JSON.parse(restarts.body.items[0].object), {
    writer,
    storedSeq: cut - 1,
    witnessedSeq: witnessed.seq,
    witnessedMac: witnessed.mac,
  });
  t.is(await renewed.stop(), 0);

  t.like(
    heads().find((head) => head.writer === writer),
    witnessed,
    'the old witnessed head is kept beside the new one',
  );
  t.true(
    heads().some((head) => head.writer === `${writer}~2` && head.seq >= 1),
    'the new chain is witnessed',
  );
  const offline = await auditCli(['verify', '--data-dir', data]);
  t.is(offline.status, 1, offline.stderr);
  t.like(offline.answer, { ok: false, firstBreak: expected });
  t.deepEqual(
    offline.answer.breaks.map((found: { writer: string; seq: number; kind: string }) => [found.writer, found.seq, found.kind]),
    [[writer, witnessed.seq, 'truncated']],
  );
  t.like(offline.answer.writers[1], { writer: `${writer}~2`, breaks: 0 });

  // The new chain is the gateway's chain from now on: a plain restart goes on with it.
  const later = await spawnGateway(t, env);
  t.is((await call(later.url, 'POST', '/keys', { headers: (await admin(later)).root })).status, 200);
  t.is(await later.stop(), 0);
  const after = await auditCli(['verify', '--data-dir', data]);
  t.deepEqual(
    after.answer.writers.map((w: { writer: string; breaks: number }) => [w.writer, w.breaks]),
    [
      [writer, 1],
      [`${writer}~2`, 0],
    ],
  );
});
