import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAuditLog } from '../src/adapters/audit-log/sqlite-audit-log.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type LoadClient, noFailures } from './load-client.js';
import { type Figure, ratios, rps } from './table.js';

/** The chain may cost at most this share of the throughput of POST /keys with the audit in SQLite, in percent. */
const BUDGET_PERCENT = 15;

/**
 * A gateway recording into the SQLite file `file`, logging and counting as deployed: `chained` as a
 * gateway runs (MAC chain, a checkpoint every 1000 entries or 60 s), or the same store without a chain.
 * Each gateway has a data directory of its own: one process writes a data directory at a time.
 */
async function sqliteGateway(
  file: string,
  chained: boolean,
  dataDir: string,
): Promise<{ gateway: Gateway; url: string; headers: Record<string, string> }> {
  const config = {
    keyServer: { kind: 'embedded' as const, adminPassword: ADMIN_PASSWORD },
    audit: { kind: 'sqlite' as const, file },
    auditIntegrity: { dataDir },
    ...DEPLOYED,
  };
  const gateway = await createGateway(config, {
    logger: deployedLogger(),
    ...(chained ? {} : { auditLog: SqliteAuditLog.open({ file }) }),
  });
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { gateway, url, headers: { 'X-Session': await signIn(url) } };
}

/**
 * The audit chain's cost (one row): POST /keys through two gateways that differ only in the chain, each
 * with its own SQLite file, in alternated rounds, the median round shown: the shared machine and its
 * disk drift within seconds. The floor is the same gateway unchained; the row is the share of its
 * throughput the chain takes.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-chain-'));
  const opened: Gateway[] = [];
  try {
    const plain = await sqliteGateway(join(dir, 'plain.db'), false, join(dir, 'plain'));
    opened.push(plain.gateway);
    const sealed = await sqliteGateway(join(dir, 'chained.db'), true, join(dir, 'chained'));
    opened.push(sealed.gateway);
    const paired = await load.paired(
      { name: 'POST /keys, SQLite audit, unchained', job: { url: `${plain.url}/keys`, method: 'POST', headers: plain.headers } },
      { name: 'POST /keys, SQLite audit, chained', job: { url: `${sealed.url}/keys`, method: 'POST', headers: sealed.headers } },
      (row, floor) => (1 - row.requestsPerSecond / floor.requestsPerSecond) * 100,
    );
    noFailures(paired.row, paired.floor);
    const latency = (paired.row.meanMs - paired.floor.meanMs) / paired.floor.meanMs;
    return [
      {
        figure: 'audit chain, POST /keys on SQLite',
        measured: `${rps(paired.row)}, ${paired.value.toFixed(1)}% less`,
        floor: `the same unchained: ${rps(paired.floor)}`,
        value: paired.value,
        goal: { op: '<=', target: BUDGET_PERCENT, unit: '%' },
        runs: [paired.floor, paired.row],
        note: `throughput lost, rounds: ${ratios(paired.values)}%; the median round is shown; it adds ${(latency * 100).toFixed(1)}% to mean latency`,
      },
    ];
  } finally {
    for (const gateway of opened) await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
