import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { auditCli, makeHistory, type RawDb, TAMPER_WRITER, TAMPERINGS, type Tampering } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

/** A gateway recording into SQLite (keys generated into its data directory), a history, and raw SQL on the file. */
async function recorded(t: ExecutionContext) {
  const dir = scratchDir('keygate-tamper-sqlite-');
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, {
    audit: { kind: 'sqlite', file },
    auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
  });
  t.teardown(() => gw.close());
  const admin = await makeHistory(gw);
  const raw = new Database(file);
  t.teardown(() => raw.close());
  const db: RawDb = {
    all: async (sql, params = []) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
    run: async (sql, params = []) => void raw.prepare(sql).run(...params),
  };
  return { gw, admin, db, dir, file };
}

test.serial('sqlite: an untouched log verifies clean by the endpoint, the CLI, and the CLI on its export', async (t) => {
  const { gw, admin, dir, file } = await recorded(t);
  const cli = await auditCli(['verify', '--sqlite', file, '--data-dir', dir]);
  t.is(cli.status, 0, cli.stderr);
  t.like(cli.answer, { ok: true });
  t.true(cli.answer.checked >= 15);
  t.like(cli.answer.writers[0], { writer: TAMPER_WRITER });
  t.true(cli.answer.writers[0].lastCheckpoint >= 4, 'checkpoints were signed');
  const exported = join(dir, 'export.jsonl');
  t.is((await auditCli(['export', '--format', 'jsonl', '--sqlite', file, '--out', exported])).status, 0);
  const offline = await auditCli(['verify', '--file', exported, '--data-dir', dir]);
  t.is(offline.status, 0, offline.stderr);
  t.like(offline.answer, { ok: true, checked: cli.answer.checked });
  const api = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.is(api.status, 200);
  t.like(api.body, { ok: true, checked: cli.answer.checked });
  t.is(api.body.firstBreak, undefined);
  const keyless = await auditCli([
    'verify',
    '--sqlite',
    file,
    '--data-dir',
    join(dir, 'elsewhere'),
    '--public-key',
    join(dir, 'public.pem'),
  ]);
  t.is(keyless.status, 3, 'a public key file that is not there is an error, not a pass');
});

for (const tampering of TAMPERINGS) {
  test.serial(`sqlite: ${tampering.kind} history is reported by the endpoint and the CLI`, async (t) => {
    const { gw, admin, db, dir, file } = await recorded(t);
    await expectReported(
      t,
      tampering,
      db,
      async () => auditCli(['verify', '--sqlite', file, '--data-dir', dir]),
      () => gw.call('GET', '/api/audit/verify', { headers: admin }),
    );
  });
}

test.serial('sqlite: an edited entry is reported from an export too, and the public key alone sees it below a truncation', async (t) => {
  const { db, dir, file } = await recorded(t);
  const exported = join(dir, 'export.jsonl');
  await TAMPERINGS.find((x) => x.kind === 'edited')!.tamper(db);
  t.is((await auditCli(['export', '--format', 'jsonl', '--sqlite', file, '--out', exported])).status, 0);
  const offline = await auditCli(['verify', '--file', exported, '--data-dir', dir]);
  t.is(offline.status, 1);
  t.like(offline.answer.firstBreak, { writer: TAMPER_WRITER, seq: 5, kind: 'edited' });
  const publicOnly = scratchDir('keygate-auditor-');
  const pem = await auditCli(['public-key', '--data-dir', dir]);
  t.regex(String(pem.answer), /BEGIN PUBLIC KEY/);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(publicOnly, 'checkpoint.pem'), String(pem.answer).replace(/^#.*\n/, ''));
  await TAMPERINGS.find((x) => x.kind === 'truncated')!.tamper(db);
  const auditor = await auditCli([
    'verify',
    '--sqlite',
    file,
    '--data-dir',
    publicOnly,
    '--public-key',
    join(publicOnly, 'checkpoint.pem'),
  ]);
  t.is(auditor.status, 1);
  t.regex(auditor.stderr, /no MAC key/);
  // The public hash chain shows the edit to the key-less auditor too: it is the earlier break.
  t.like(auditor.answer.firstBreak, { kind: 'edited', seq: 5 });
});

async function expectReported(
  t: ExecutionContext,
  tampering: Tampering,
  db: RawDb,
  cli: () => ReturnType<typeof auditCli>,
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answer field by field
  endpoint: () => Promise<{ status: number; body: any }>,
): Promise<void> {
  await tampering.tamper(db);
  const expected = { writer: TAMPER_WRITER, seq: await tampering.seq(db), kind: tampering.kind };
  // The CLI first: the endpoint's own record is written after its answer, and extends the chain.
  const offline = await cli();
  t.is(offline.status, 1, offline.stderr);
  t.like(offline.answer, { ok: false, firstBreak: expected });
  const online = await endpoint();
  t.is(online.status, 200);
  t.like(online.body, { ok: false, firstBreak: expected });
  t.is(typeof online.body.firstBreak.detail, 'string');
}

export { expectReported };
