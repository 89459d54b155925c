import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import pg from 'pg';
import { auditCli, exportAKey, makeHistory, plantTwoBreaks, type RawDb, TAMPER_WRITER } from '../_support/audit-tampering.js';
import { startGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

/**
 * A planted break must not hide a later one: verify names every break of a writer (docs/spec.md §9.5),
 * through the CLI (JSON and words) and the endpoint, on both SQL stores.
 */

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const onPostgres = testUnless(postgres.reason).serial;

// biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON answer field by field
type Verify = () => Promise<{ status: number; body: any }>;

async function bothBreaksNamed(t: ExecutionContext, db: RawDb, cli: (extra?: string[]) => ReturnType<typeof auditCli>, endpoint: Verify) {
  const expected = await plantTwoBreaks(db);
  // The CLI first: the endpoint's own record extends the chain.
  const offline = await cli();
  t.is(offline.status, 1, offline.stderr);
  t.like(offline.answer, { ok: false, firstBreak: expected[0] });
  t.deepEqual(
    offline.answer.breaks?.map(({ writer, seq, kind }: { writer: string; seq: number; kind: string }) => ({ writer, seq, kind })),
    expected,
    'the CLI names both breaks',
  );
  t.like(offline.answer.writers[0], { writer: TAMPER_WRITER, breaks: 2, unlisted: 0 });
  // In words on standard error (standard output stays the JSON answer), one line per break.
  for (const { seq } of expected)
    t.regex(offline.stderr, new RegExp(`^keygate audit: break: writer ${TAMPER_WRITER} seq ${seq}: edited: `, 'm'));
  const quiet = await cli(['--json']);
  t.deepEqual(quiet.answer, offline.answer, 'the same answer with --json');
  t.notRegex(quiet.stderr, /break:/, 'with --json, standard error stays for errors');
  const online = await endpoint();
  t.is(online.status, 200);
  t.like(online.body, { ok: false, firstBreak: expected[0] });
  t.deepEqual(
    online.body.breaks?.map(({ writer, seq, kind }: { writer: string; seq: number; kind: string }) => ({ writer, seq, kind })),
    expected,
    'the endpoint names both breaks',
  );
}

test.serial('sqlite: an edited login entry does not hide a later edited export record', async (t) => {
  const dir = scratchDir('keygate-breaks-sqlite-');
  const file = join(dir, 'audit.db');
  const gw = await startGateway(t, {
    audit: { kind: 'sqlite', file },
    auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 },
  });
  t.teardown(() => gw.close());
  const admin = await makeHistory(gw);
  await exportAKey(gw);
  const raw = new Database(file);
  t.teardown(() => raw.close());
  const db: RawDb = {
    all: async (sql, params = []) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
    run: async (sql, params = []) => void raw.prepare(sql).run(...params),
  };
  await bothBreaksNamed(
    t,
    db,
    (extra = []) => auditCli(['verify', '--sqlite', file, '--data-dir', dir, ...extra]),
    () => gw.call('GET', '/api/audit/verify', { headers: admin }),
  );
});

onPostgres('postgres: an edited login entry does not hide a later edited export record', async (t) => {
  const dir = scratchDir('keygate-breaks-pg-');
  const schema = `breaks_${process.pid}`;
  const audit = { kind: 'postgres' as const, url: postgres.url!, schema, connectTimeoutMs: 30_000, statementTimeoutMs: 30_000 };
  const gw = await startGateway(t, { audit, auditIntegrity: { writer: TAMPER_WRITER, dataDir: dir, checkpointEvery: 4 } });
  t.teardown(() => gw.close());
  const admin = await makeHistory(gw);
  await exportAKey(gw);
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  t.teardown(() => client.end());
  await client.query(`SET search_path TO "${schema}"`);
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const db: RawDb = {
    all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
  };
  await bothBreaksNamed(
    t,
    db,
    (extra = []) => auditCli(['verify', '--postgres', postgres.url!, '--schema', schema, '--data-dir', dir, ...extra]),
    () => gw.call('GET', '/api/audit/verify', { headers: admin }),
  );
});
