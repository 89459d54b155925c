import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, killAllDaemons, spawnDaemon, type DaemonProcess } from '../test/_support/keyserver-daemon.js';
import { startTestPostgres } from '../test/_support/postgres.js';
import { ADMIN_PASSWORD, exportRequest, pairedRuns, ratios, signIn, type Job } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import { runLine } from './figure-table.js';
import { LoadClient } from './load-client.js';

/** The goal: a daemon on PostgreSQL serves at least this share of what one on SQLite serves. */
const GOAL = 0.5;

/** A gateway over the daemon (TLS, resumed sessions), listening: its POST /keys and export requests. */
async function gatewayOver(daemon: DaemonProcess, gateways: Gateway[]): Promise<{ create: Job; exportKey: Job }> {
  const keyServer = { kind: 'tls' as const, url: daemon.url, fingerprint: daemon.fingerprint, resumeSessions: true, ...(await clientConfig()) };
  const gateway = await createGateway({ keyServer, ...DEPLOYED }, { logger: deployedLogger() });
  gateways.push(gateway);
  const { url } = await gateway.listen(0, '127.0.0.1');
  const session = await signIn(url);
  const { headers, body } = await exportRequest(url, session);
  return {
    create: { url: `${url}/keys`, method: 'POST', headers: { 'X-Session': session } },
    exportKey: { url: `${url}/keys/export`, method: 'POST', headers, body },
  };
}

/**
 * The daemon's store on PostgreSQL beside the same on SQLite: `POST /keys` and `POST /keys/export`
 * through a gateway over a `keygate keyserver` on each, in alternated rounds (SQLite, then PostgreSQL),
 * the median round shown. Both stores are durable: the SQLite file in WAL, PostgreSQL with fsync on.
 */
export async function benchPostgresStore(): Promise<void> {
  const postgres = startTestPostgres({ durable: true });
  if (postgres.url === undefined) {
    process.stdout.write(`\nkey-server store on PostgreSQL: not measured (${postgres.reason})\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-pg-'));
  const masterKeyFile = join(dir, 'master.key');
  writeFileSync(masterKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const common = ['--port', '0', '--admin-password', ADMIN_PASSWORD, '--master-key-file', masterKeyFile];
  const load = await LoadClient.start();
  const gateways: Gateway[] = [];
  try {
    const sqlite = await spawnDaemon(untilKillAll, [...common, '--data', join(dir, 'sqlite', 'keyserver.db')]);
    const pg = await spawnDaemon(untilKillAll, [...common, '--data', join(dir, 'pg', 'keyserver.db'), '--postgres', postgres.url]);
    const onSqlite = await gatewayOver(sqlite, gateways);
    const onPostgres = await gatewayOver(pg, gateways);
    process.stdout.write('\nthe key-server daemon on PostgreSQL beside the same on SQLite (requests per second, the median of alternated rounds)\n');
    for (const [name, pick] of [
      ['POST /keys', (jobs: typeof onSqlite) => jobs.create],
      ['export', (jobs: typeof onSqlite) => jobs.exportKey],
    ] as const) {
      const paired = await pairedRuns(
        load,
        { name: `${name}, daemon on SQLite`, job: pick(onSqlite) },
        { name: `${name}, daemon on PostgreSQL`, job: pick(onPostgres) },
        (row, floor) => row.requestsPerSecond / floor.requestsPerSecond,
      );
      for (const run of [paired.row, paired.floor]) if (run.non2xx + run.errors > 0) throw new Error(`${run.name}: requests failed`);
      process.stdout.write(
        `    ${runLine(paired.floor)}\n    ${runLine(paired.row)}\n` +
          `${name}: PostgreSQL ${paired.value.toFixed(2)}x SQLite (rounds ${ratios(paired.values)}; goal: >= ${GOAL}x; ${paired.value >= GOAL ? 'met' : 'NOT met'})\n`,
      );
    }
  } finally {
    load.stop();
    for (const gateway of gateways) await gateway.close();
    await killAllDaemons();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
