import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { configFromEnv } from '../../src/app/config/from-env.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

const bin = new URL('../_support/keygate-from-source.js', import.meta.url).pathname;

/** Runs `keygate serve` to its exit (asynchronously: other tests of this file keep running). */
function serveUntilExit(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [bin, 'serve'], { env, timeout: 30_000 }, (error, _stdout, stderr) => {
      done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
    });
  });
}
const postgres = startTestPostgres();
test.after.always(() => postgres.stop());

test('the audit store is PostgreSQL with TE_GATEWAY_AUDIT_URL, else SQLite in the data directory, else memory', (t) => {
  t.deepEqual(configFromEnv({}).audit, { kind: 'memory' });
  t.deepEqual(configFromEnv({}, { dataDir: './data' }).audit, { kind: 'sqlite', file: join('data', 'audit.db') });
  t.deepEqual(configFromEnv({ TE_GATEWAY_DATA_DIR: '/srv/keygate' }, { dataDir: './data' }).audit, {
    kind: 'sqlite',
    file: '/srv/keygate/audit.db',
  });
  const url = 'postgresql://keygate:pw@db.internal:5432/audit';
  t.deepEqual(configFromEnv({ TE_GATEWAY_AUDIT_URL: url }, { dataDir: './data' }).audit, { kind: 'postgres', url, timeoutMs: 2000 });
});

test('a TE_GATEWAY_AUDIT_URL that is not a PostgreSQL URL stops the boot with a line naming it, never echoing it', async (t) => {
  for (const value of ['mysql://keygate:s3cret-pw@db/audit', 's3cret-pw', 'http://keygate:s3cret-pw@db/']) {
    const error = t.throws(() => configFromEnv({ TE_GATEWAY_AUDIT_URL: value }));
    t.regex(error!.message, /^TE_GATEWAY_AUDIT_URL:/);
    t.false(error!.message.includes('s3cret-pw'));
  }
  const cli = await serveUntilExit({ ...process.env, TE_GATEWAY_AUDIT_URL: 'mysql://u:s3cret-pw@h/d' });
  t.is(cli.status, 2);
  t.is(cli.stderr.trim().split('\n').length, 1);
  t.false(cli.stderr.includes('s3cret-pw'));
});

test('an audit store that cannot be opened stops the CLI with one line naming the setting, without the password', async (t) => {
  const cli = await serveUntilExit({
    ...process.env,
    TE_GATEWAY_PORT: '0',
    TE_GATEWAY_AUDIT_URL: 'postgres://keygate:s3cret-pw@127.0.0.1:1/audit',
  });
  t.is(cli.status, 1);
  t.is(cli.stderr.trim().split('\n').length, 1);
  t.regex(cli.stderr, /^keygate: TE_GATEWAY_AUDIT_URL: audit store unavailable/);
  t.false(cli.stderr.includes('s3cret-pw'));
});

test('the CLI keeps the audit log in ./data/audit.db by default', async (t) => {
  const cwd = scratchDir('keygate-cli-');
  const env: NodeJS.ProcessEnv = { ...process.env, TE_GATEWAY_PORT: '0', TE_KEYSERVER_ADMIN_PASSWORD: 'cli-admin-password' };
  delete env.TE_GATEWAY_DATA_DIR;
  delete env.TE_GATEWAY_AUDIT_URL;
  const child = spawn(process.execPath, [bin, 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((found, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (match) found(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`keygate exited with ${code}`)));
  });
  const health = await fetch(`${url}/health`);
  t.is(health.status, 200);
  t.is(((await health.json()) as { ok: boolean }).ok, true);
  t.true(existsSync(join(cwd, 'data', 'audit.db')));
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
});

testUnless(postgres.reason)('with TE_GATEWAY_AUDIT_URL the gateway records into PostgreSQL', async (t) => {
  const config = configFromEnv({ TE_GATEWAY_AUDIT_URL: postgres.url!, TE_KEYSERVER_ADMIN_PASSWORD: 'pg-admin-password' });
  const gateway = await createGateway(config, { logger: new MemoryLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: 'pg-admin-password' }),
  });
  t.is(login.status, 200);
  const requestId = login.headers.get('x-request-id');
  await gateway.close();
  const client = new pg.Client({ connectionString: postgres.url! });
  await client.connect();
  const rows = await client.query('SELECT operation, principal, outcome, status FROM audit_record WHERE request_id = $1', [requestId]);
  await client.end();
  t.deepEqual(rows.rows, [{ operation: 'login', principal: 'admin', outcome: 'ok', status: 200 }]);
});
