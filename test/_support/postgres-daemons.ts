import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { TlsKeyServer } from '../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import type { Owner } from './child-processes.js';
import { killAllGateways } from './gateway-process.js';
import { clientConfig, type DaemonProcess, killAllDaemons, spawnDaemon } from './keyserver-daemon.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { scratchDir } from './scratch-dirs.js';
import { type Declare, testUnless } from './skip.js';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;

/**
 * The PostgreSQL server of one test file, and `maybe`: `test`, or ava's skip with the reason (skip.ts)
 * when there is no server. After the file's tests, its daemons and gateways are killed and the server stops.
 */
export function postgresForTests(): { server: TestPostgres; maybe: Declare } {
  const server = startTestPostgres();
  test.after.always(async () => {
    await killAllDaemons();
    await killAllGateways();
    await server.stop();
  });
  return { server, maybe: testUnless(server.reason) };
}

/** Runs `keygate args` to its end with `env` over the inherited environment (for commands that exit). */
export function runKeygate(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', timeout: 45_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/** The principals every daemon of these tests is seeded with (existing ones are kept on a second start). */
export const PG_SEED = {
  principals: [
    { name: 'admin', kind: 'user', password: 'admin-pw', roles: ['admin'] },
    ...['alice', 'bob', 'carol'].map((name) => ({ name, kind: 'user', password: `${name}-pw` })),
    { name: 'ops', kind: 'group' },
  ],
};

let databases = 0;

/** A fresh database on the test server: its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `keygate_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** What the daemons of one database share: the master key (in a file) and the seed. */
export interface SharedFixtures {
  readonly dir: string;
  readonly masterKeyFile: string;
  readonly seedPath: string;
}

export function sharedFixtures(seed: unknown = PG_SEED): SharedFixtures {
  const dir = scratchDir('keygate-pg-daemons-');
  const fixtures = { dir, masterKeyFile: join(dir, 'master.key'), seedPath: join(dir, 'seed.json') };
  writeFileSync(fixtures.masterKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  writeFileSync(fixtures.seedPath, JSON.stringify(seed));
  return fixtures;
}

let daemons = 0;

/**
 * A `keygate keyserver` on the database: the URL by `--postgres`, or by TE_KEYSERVER_POSTGRES_URL
 * (`viaEnvironment`), the shared master key file and seed, its identity in a directory of its own.
 */
export function spawnPostgresDaemon(
  owner: Owner,
  databaseUrl: string,
  fixtures: SharedFixtures,
  options: { viaEnvironment?: boolean; args?: readonly string[] } = {},
): Promise<DaemonProcess> {
  const data = join(fixtures.dir, `daemon-${++daemons}`, 'keyserver.db');
  const args = [
    '--port',
    '0',
    '--data',
    data,
    '--master-key-file',
    fixtures.masterKeyFile,
    '--seed',
    fixtures.seedPath,
    ...(options.args ?? []),
  ];
  if (options.viaEnvironment) return spawnDaemon(owner, args, { TE_KEYSERVER_POSTGRES_URL: databaseUrl });
  return spawnDaemon(owner, [...args, '--postgres', databaseUrl]);
}

/** The gateway's adapter to one daemon (pinned by fingerprint), closed by the owner's teardown. */
export async function adapterTo(owner: Owner, daemon: DaemonProcess): Promise<TlsKeyServer> {
  const keyServer = await TlsKeyServer.start(
    { url: daemon.url, timeoutMs: 10_000, resumeSessions: true, fingerprint: daemon.fingerprint, ...(await clientConfig()) },
    new CryptoRandom(),
  );
  owner.teardown(() => keyServer.close());
  return keyServer;
}
