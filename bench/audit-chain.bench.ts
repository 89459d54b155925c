import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAuditLog } from '../src/adapters/audit-log/sqlite-audit-log.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, pairedRuns, ratios, signIn } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';
import { runLine } from './figure-table.js';
import { LoadClient } from './load-client.js';

/** The chain may add at most this share to POST /keys with the audit in SQLite. */
const BUDGET = 0.15;

/**
 * A gateway recording into the SQLite file `file`, logging and counting as deployed: `chained` as a
 * gateway runs (MAC chain, a checkpoint every 1000 entries or 60 s), or the same store without a chain.
 */
async function sqliteGateway(file: string, chained: boolean, dataDir: string): Promise<{ gateway: Gateway; url: string; headers: Record<string, string> }> {
  const config = {
    keyServer: { kind: 'embedded' as const, adminPassword: ADMIN_PASSWORD },
    audit: { kind: 'sqlite' as const, file },
    auditIntegrity: { dataDir },
    ...DEPLOYED,
  };
  const gateway = await createGateway(config, { logger: deployedLogger(), ...(chained ? {} : { auditLog: SqliteAuditLog.open({ file }) }) });
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { gateway, url, headers: { 'X-Session': await signIn(url) } };
}

/**
 * The audit chain's cost row: POST /keys through two gateways that differ only in the chain, each with its
 * own SQLite file, measured as every figure is (the load generator in a process of its own, alternated
 * rounds, the median round shown): the shared machine and its disk drift within seconds.
 */
export async function benchAuditChain(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-chain-'));
  const load = await LoadClient.start();
  const opened: Gateway[] = [];
  try {
    const plain = await sqliteGateway(join(dir, 'plain.db'), false, dir);
    opened.push(plain.gateway);
    const sealed = await sqliteGateway(join(dir, 'chained.db'), true, dir);
    opened.push(sealed.gateway);
    const paired = await pairedRuns(
      load,
      { name: 'POST /keys, SQLite audit, unchained', job: { url: `${plain.url}/keys`, method: 'POST', headers: plain.headers } },
      { name: 'POST /keys, SQLite audit, chained', job: { url: `${sealed.url}/keys`, method: 'POST', headers: sealed.headers } },
      (row, floor) => 1 - row.requestsPerSecond / floor.requestsPerSecond,
    );
    for (const run of [paired.row, paired.floor]) if (run.non2xx + run.errors > 0) throw new Error(`${run.name}: requests failed`);
    const latency = (paired.row.meanMs - paired.floor.meanMs) / paired.floor.meanMs;
    process.stdout.write(
      `\nPOST /keys with the audit in SQLite, chained beside unchained (the median of ${paired.values.length} alternated rounds)\n` +
        `    ${runLine(paired.floor)}\n    ${runLine(paired.row)}\n` +
        `chaining costs ${(paired.value * 100).toFixed(1)}% of throughput (rounds ${ratios(paired.values.map((value) => value * 100))}%) ` +
        `and adds ${(latency * 100).toFixed(1)}% to mean latency (budget: ${BUDGET * 100}%; ${paired.value <= BUDGET ? 'met' : 'NOT met'})\n`,
    );
  } finally {
    load.stop();
    for (const gateway of opened) await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
