import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, type DaemonProcess, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { startTestPostgres } from '../test/_support/postgres.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, exportRequest, signIn } from './deployed.js';
import { type Job, type LoadClient, noFailures, ratioTo } from './load-client.js';
import { type Figure, pairedFigure, rps } from './table.js';

/** The goal: a daemon on PostgreSQL serves at least this share of what one on SQLite serves. */
const GOAL = 0.5;

/** A gateway over the daemon (TLS, resumed sessions), listening: its POST /keys and export requests. */
async function gatewayOver(daemon: DaemonProcess, gateways: Gateway[]): Promise<{ create: Job; exportKey: Job }> {
  const keyServer = {
    kind: 'tls' as const,
    url: daemon.url,
    fingerprint: daemon.fingerprint,
    resumeSessions: true,
    ...(await clientConfig()),
  };
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
 * The daemon's store on PostgreSQL beside the same on SQLite (two rows): `POST /keys` and
 * `POST /keys/export` through a gateway over a `keygate keyserver` on each, in alternated rounds
 * (SQLite, then PostgreSQL), the median round shown. Both stores are durable: the SQLite file in WAL,
 * PostgreSQL with fsync on. Without a PostgreSQL to start, it says why and answers no row.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const postgres = startTestPostgres({ durable: true });
  if (postgres.url === undefined) {
    process.stdout.write(`key-server store on PostgreSQL: not measured (${postgres.reason})\n`);
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-pg-'));
  const masterKeyFile = join(dir, 'master.key');
  writeFileSync(masterKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const common = ['--port', '0', '--admin-password', ADMIN_PASSWORD, '--master-key-file', masterKeyFile];
  const gateways: Gateway[] = [];
  try {
    const sqlite = await spawnDaemon(untilKillAll, [...common, '--data', join(dir, 'sqlite', 'keyserver.db')]);
    const pg = await spawnDaemon(untilKillAll, [...common, '--data', join(dir, 'pg', 'keyserver.db'), '--postgres', postgres.url]);
    const onSqlite = await gatewayOver(sqlite, gateways);
    const onPostgres = await gatewayOver(pg, gateways);
    const rows: Figure[] = [];
    for (const [name, pick] of [
      ['POST /keys', (jobs: typeof onSqlite) => jobs.create],
      ['export', (jobs: typeof onSqlite) => jobs.exportKey],
    ] as const) {
      const paired = await load.paired(
        { name: `${name}, daemon on SQLite`, job: pick(onSqlite) },
        { name: `${name}, daemon on PostgreSQL`, job: pick(onPostgres) },
        ratioTo,
      );
      noFailures(paired.row, paired.floor);
      rows.push(
        pairedFigure(`${name}, daemon on PostgreSQL`, paired, `the same on SQLite: ${rps(paired.floor)}`, {
          op: '>=',
          target: GOAL,
          unit: 'x',
        }),
      );
    }
    return rows;
  } finally {
    for (const gateway of gateways) await gateway.close();
    await killAllDaemons();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
