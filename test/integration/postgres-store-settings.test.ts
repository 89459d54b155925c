import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Secret } from '../../src/domain/secret/secret.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { spawnDaemon } from '../_support/keyserver-daemon.js';
import { adapterTo, createDatabase, postgresForTests, runKeygate, sharedFixtures } from '../_support/postgres-daemons.js';

const { server, maybe } = postgresForTests();

/** The database's URL with a password in it (the test server trusts every local connection, so it is not checked). */
async function urlWithPassword(): Promise<{ url: string; password: string }> {
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const url = new URL(await createDatabase(server.url!));
  url.password = password;
  return { url: url.toString(), password };
}

maybe(
  'keygate keyserver on PostgreSQL by TE_KEYSERVER_POSTGRES_URL_FILE: the password shows in no log line and not in the config operation',
  async (t) => {
    const { url, password } = await urlWithPassword();
    const fixtures = sharedFixtures();
    const urlFile = join(fixtures.dir, 'postgres-url');
    writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
    const started = await spawnDaemon(
      t,
      [
        '--port',
        '0',
        '--data',
        join(fixtures.dir, 'ks', 'keyserver.db'),
        '--master-key-file',
        fixtures.masterKeyFile,
        '--seed',
        fixtures.seedPath,
      ],
      { TE_KEYSERVER_POSTGRES_URL_FILE: urlFile },
    );
    const keyServer = await adapterTo(t, started);
    const admin = await keyServer.connect((await keyServer.login('admin', new Secret('admin-pw'))).token);
    t.teardown(() => admin.close());
    const config = await admin.call('serverConfig', {});
    t.like(config, { store: 'postgres' });
    t.regex(String(config.postgres), /^postgres:\/\/postgres:\[redacted\]@127\.0\.0\.1:\d+\/keygate_/);
    t.false(JSON.stringify(config).includes(password));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    t.teardown(() => client.end());
    t.is((await client.query('SELECT name FROM principals WHERE name = $1', ['admin'])).rowCount, 1, 'the rows are in PostgreSQL');
    t.is(await started.stop(), 0);
    t.false(started.output().includes(password));
  },
);

maybe(
  'keygate keyserver refuses --postgres with the variable too, or without a master key, or an unreachable server, in one line without the password',
  async (t) => {
    const { url, password } = await urlWithPassword();
    const fixtures = sharedFixtures();
    const base = ['keyserver', '--port', '0', '--client-fingerprint', 'ab'.repeat(32)];
    const both = await runKeygate([...base, '--postgres', url, '--master-key-file', fixtures.masterKeyFile], {
      TE_KEYSERVER_POSTGRES_URL: url,
    });
    t.is(both.stderr, 'keygate: --postgres and TE_KEYSERVER_POSTGRES_URL: give one of the two\n');
    t.is(both.status, 2);
    const noKey = await runKeygate([...base, '--postgres', url], { TE_KEYSERVER_MASTER_KEY: '', TE_KEYSERVER_MASTER_KEY_FILE: '' });
    t.regex(
      noKey.stderr,
      /^keygate: --postgres: give the master key \(--master-key-file FILE or TE_KEYSERVER_MASTER_KEY\), the same to every daemon on the database\n$/,
    );
    const unreachable = new URL(url);
    unreachable.port = '1';
    const down = await runKeygate([
      ...base,
      '--postgres',
      unreachable.toString(),
      '--master-key-file',
      fixtures.masterKeyFile,
      '--data',
      join(fixtures.dir, 'x', 'ks.db'),
    ]);
    t.is(down.status, 2, down.stderr);
    t.regex(down.stderr, /^keygate: PostgreSQL 127\.0\.0\.1:1\/keygate_\w+: .+\n$/);
    for (const result of [both, noKey, down]) t.false(result.stderr.includes(password) || result.stdout.includes(password));
  },
);

maybe('keygate serve with TE_KEYSERVER_POSTGRES_URL keeps the embedded engine store in PostgreSQL and masks the URL', async (t) => {
  const { url, password } = await urlWithPassword();
  const masterKey = randomBytes(32).toString('base64');
  const dir = sharedFixtures(SEED).dir;
  const seed = join(dir, 'seed.json');
  const env = {
    TE_KEYSERVER_POSTGRES_URL: url,
    TE_KEYSERVER_MASTER_KEY: masterKey,
    TE_KEYSERVER_SEED: seed,
    TE_KEYSERVER_ADMIN_PASSWORD: PASSWORDS.admin,
  };
  const printed = await runKeygate(['serve', '--print-config'], env);
  t.is(printed.status, 0, printed.stderr);
  t.false(printed.stdout.includes(password));
  t.like(JSON.parse(printed.stdout).keyServer, { kind: 'embedded', postgresUrl: '[redacted]' });

  const gateway = await spawnGateway(t, env);
  const login = await call(gateway.url, 'POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(login.status, 200, login.text);
  const made = await call(gateway.url, 'POST', '/keys', { headers: { 'X-Session': login.body.sessionId } });
  t.is(made.status, 200, made.text);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  t.is((await client.query('SELECT ttag FROM keys WHERE ttag = $1', [made.body.ttag])).rowCount, 1, 'the key is a row in PostgreSQL');
  t.false(gateway.output().includes(password));
  const unset = await runKeygate(['serve', '--print-config'], { ...env, TE_KEYSERVER_MASTER_KEY: '' });
  t.is(unset.status, 2);
  t.regex(unset.stderr, /TE_KEYSERVER_POSTGRES_URL: a store in PostgreSQL needs the master key given/);
  t.false(unset.stderr.includes(password));
});
