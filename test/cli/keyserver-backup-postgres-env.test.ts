import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { readKeyFile } from '../../src/keyserver/at-rest/master-key-source.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { createKey, signIn } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { startTestPostgres } from '../_support/postgres.js';
import { createDatabase } from '../_support/postgres-daemons.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { testUnless } from '../_support/skip.js';

/**
 * `keygate keyserver backup|restore` against PostgreSQL, run as the real CLI process: the store comes from
 * TE_KEYSERVER_POSTGRES_URL or its _FILE form as the gateway takes it (docs/deployment.md), and a row
 * PostgreSQL cannot hold is named, with nothing written.
 */
const postgres = startTestPostgres();
const withPostgres = testUnless(postgres.reason);
test.after.always(() => postgres.stop());

/** A URL with a password in it (the throwaway cluster trusts loopback, so any password is accepted). */
const PASSWORD = 'pg-secret-on-no-command-line';
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.toString();
}

function scratch(prefix: string): { dir: string; keyFile: string; masterKey: string } {
  const dir = scratchDir(prefix);
  const masterKey = randomBytes(32).toString('base64');
  const keyFile = join(dir, 'master.key');
  writeFileSync(keyFile, `${masterKey}\n`, { mode: 0o600 });
  return { dir, keyFile, masterKey };
}

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

withPostgres(
  'backup and restore take the PostgreSQL store from TE_KEYSERVER_POSTGRES_URL and its _FILE form; --postgres wins over both',
  async (t) => {
    const { dir, keyFile, masterKey } = scratch('keygate-backup-env-');
    const source = withPassword(await createDatabase(postgres.url!));
    const gw = await startGateway(t, {
      keyServer: {
        kind: 'embedded',
        seed: SEED,
        adminPassword: PASSWORDS.admin,
        dataDir: dir,
        store: 'postgres',
        postgresUrl: source,
        masterKey,
      },
    });
    const { ttag } = await createKey(await signIn(gw, 'alice'), { label: 'payroll' });
    await gw.close();

    const backup = join(dir, 'ks.backup');
    const taken = await runKeyserverCli(['backup', '--out', backup, '--master-key-file', keyFile, '--json'], {
      TE_KEYSERVER_POSTGRES_URL: source,
    });
    t.is(taken.status, 0, taken.stderr);
    t.like(JSON.parse(taken.stdout), { action: 'backup', counts: { keys: 1 } });

    const target = withPassword(await createDatabase(postgres.url!));
    const urlFile = join(dir, 'postgres-url');
    writeFileSync(urlFile, `${target}\n`, { mode: 0o600 });
    const restored = await runKeyserverCli(['restore', '--in', backup, '--master-key-file', keyFile, '--json'], {
      TE_KEYSERVER_POSTGRES_URL_FILE: urlFile,
    });
    t.is(restored.status, 0, restored.stderr);
    t.like(JSON.parse(restored.stdout), { action: 'restore', counts: { keys: 1 } });
    t.deepEqual(await rows(target, 'SELECT ttag, label FROM keys'), [{ ttag, label: 'payroll' }]);

    const flagged = withPassword(await createDatabase(postgres.url!));
    const overridden = await runKeyserverCli(['restore', '--in', backup, '--master-key-file', keyFile, '--postgres', flagged], {
      TE_KEYSERVER_POSTGRES_URL: target,
    });
    t.is(overridden.status, 0, `--postgres wins over the variable (whose store is not empty): ${overridden.stderr}`);
    t.deepEqual(await rows(flagged, 'SELECT ttag FROM keys'), [{ ttag }]);
    for (const run of [taken, restored, overridden])
      t.false(`${run.stdout}${run.stderr}`.includes(PASSWORD), 'the URL password is never printed');
  },
);

withPostgres(
  'a SQLite backup holding a NUL in a label and a display name is refused by a PostgreSQL restore naming both rows, with nothing written',
  async (t) => {
    const { dir, keyFile, masterKey } = scratch('keygate-backup-nul-');
    const gw = await startGateway(t, {
      keyServer: { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin, dataDir: dir, store: 'sqlite', masterKey },
    });
    const { ttag } = await createKey(await signIn(gw, 'alice'), { label: 'payroll' });
    await gw.close();
    // Written into the store directly: the text rule at the edge refuses such a label now; an older store may hold one.
    const store = new SqliteEngineStore(join(dir, 'keyserver.db'), readKeyFile(keyFile));
    await store.atomically(async () => {
      await store.putKey({ ...(await store.key(ttag))!, label: 'pay\u0000roll' });
      await store.putPrincipal({ ...(await store.principalByName('bob'))!, displayName: 'Bob\u0000' });
    });
    await store.close();

    const backup = join(dir, 'ks.backup');
    const taken = await runKeyserverCli(['backup', '--out', backup, '--data', join(dir, 'keyserver.db'), '--master-key-file', keyFile]);
    t.is(taken.status, 0, taken.stderr);

    const target = await createDatabase(postgres.url!);
    const restored = await runKeyserverCli(['restore', '--in', backup, '--postgres', target, '--master-key-file', keyFile]);
    t.is(restored.status, 1, restored.stderr);
    t.regex(restored.stderr, /^keygate: restore: 2 rows hold a NUL character/);
    t.true(restored.stderr.includes('principals name="bob" field display_name'), restored.stderr);
    t.true(restored.stderr.includes(`keys ttag=${JSON.stringify(ttag)} field label`), restored.stderr);
    t.regex(restored.stderr, /nothing was written\n$/);
    for (const shown of ['pay\u0000roll', 'pay\\u0000roll', 'Bob\u0000']) t.false(restored.stderr.includes(shown), 'no value is shown');
    const counts = await rows(target, 'SELECT (SELECT count(*) FROM principals) AS principals, (SELECT count(*) FROM keys) AS keys');
    t.deepEqual(counts, [{ principals: '0', keys: '0' }], 'nothing half-written');
  },
);
