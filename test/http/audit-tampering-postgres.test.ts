import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { auditTestKeys } from '../_support/audit-chain.js';
import { auditCli, makeHistory, type RawDb, TAMPER_WRITER, TAMPERINGS } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const check = testUnless(postgres.reason).serial;
let schemas = 0;

/** Raw SQL on one schema of the test server, `?` placeholders turned into `$n`. */
async function rawDb(t: ExecutionContext, schema: string): Promise<RawDb> {
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  t.teardown(() => client.end());
  await client.query(`SET search_path TO "${schema}"`);
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
  };
}

/** A gateway recording into its own schema (keys generated into its data directory), and a history. */
async function recorded(t: ExecutionContext) {
  const dir = scratchDir('keygate-tamper-pg-');
  const schema = `tamper_${process.pid}_${schemas++}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
  const gw = await startGateway(t, { audit, auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 } });
  t.teardown(() => gw.close());
  const admin = await makeHistory(gw);
  const cli = () => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, '--data-dir', dir]);
  return { gw, admin, db: await rawDb(t, schema), cli };
}

check('postgres: an untouched log verifies clean by the endpoint and the CLI', async (t) => {
  const { gw, admin, cli } = await recorded(t);
  const offline = await cli();
  t.is(offline.status, 0, offline.stderr);
  t.like(offline.answer, { ok: true, writers: [{ writer: TAMPER_WRITER }] });
  const online = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.like(online, { status: 200, body: { ok: true, checked: offline.answer.checked } });
});

for (const tampering of TAMPERINGS) {
  check(`postgres: ${tampering.kind} history is reported by the endpoint and the CLI`, async (t) => {
    const { gw, admin, db, cli } = await recorded(t);
    await tampering.tamper(db);
    const expected = { writer: TAMPER_WRITER, seq: await tampering.seq(db), kind: tampering.kind };
    // The CLI first: the endpoint's own record is written after its answer, and extends the chain.
    const offline = await cli();
    t.is(offline.status, 1, offline.stderr);
    t.like(offline.answer, { ok: false, firstBreak: expected });
    const online = await gw.call('GET', '/api/audit/verify', { headers: admin });
    t.like(online, { status: 200, body: { ok: false, firstBreak: expected } });
  });
}

check(
  'postgres: two gateways are two writers of one log; it verifies clean, and a writer gone from a range with its checkpoints is reported',
  async (t) => {
    const keys = auditTestKeys();
    const schema = `writers_${process.pid}_${schemas++}`;
    const shared = {
      key: keys.macKey.toString('base64'),
      signingKey: keys.signingKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      checkpointEvery: 4,
    };
    const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
    const a = await startGateway(t, { audit, auditIntegrity: { ...shared, writer: 'gw-a' } });
    t.teardown(() => a.close());
    const b = await startGateway(t, { audit, auditIntegrity: { ...shared, writer: 'gw-b' } });
    t.teardown(() => b.close());
    const [adminA] = await Promise.all([makeHistory(a), makeHistory(b)]);
    const keyFile = join(scratchDir('keygate-auditor-'), 'mac.key');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(keyFile, shared.key);
    const env = { TE_GATEWAY_AUDIT_KEY_FILE: keyFile, TE_GATEWAY_AUDIT_SIGNING_KEY_FILE: join(keyFile, '..', 'signing.pem') };
    writeFileSync(env.TE_GATEWAY_AUDIT_SIGNING_KEY_FILE, shared.signingKey);
    const offline = await auditCli(['verify', '--postgres', postgres.url!, '--schema', schema], env);
    t.is(offline.status, 0, offline.stderr);
    t.deepEqual(
      offline.answer.writers.map((w: { writer: string }) => w.writer),
      ['gw-a', 'gw-b'],
    );
    t.true(offline.answer.writers.every((w: { lastCheckpoint: number | null }) => w.lastCheckpoint !== null));
    const online = await a.call('GET', '/api/audit/verify', { headers: adminA });
    t.like(online.body, { ok: true });
    t.is(online.body.writers.length, 2);

    const db = await rawDb(t, schema);
    await db.run("DELETE FROM audit_entry WHERE writer = 'gw-b'");
    const hour = 3_600_000;
    const range = `from=${encodeURIComponent(new Date(a.clock.now() - hour).toISOString())}&to=${encodeURIComponent(new Date(a.clock.now() + hour).toISOString())}`;
    const missing = await a.call('GET', `/api/audit/verify?${range}`, { headers: adminA });
    t.like(missing.body, { ok: false, firstBreak: { writer: 'gw-b', kind: 'truncated' } });
    t.regex(missing.body.firstBreak.detail, /no entries/);
    const cli = await auditCli(
      ['verify', '--postgres', postgres.url!, '--schema', schema, '--from', new Date(a.clock.now() - hour).toISOString()],
      env,
    );
    t.is(cli.status, 1);
    t.like(cli.answer.firstBreak, { writer: 'gw-b', kind: 'truncated' });
  },
);
