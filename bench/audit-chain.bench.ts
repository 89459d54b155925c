import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { SqliteAuditLog } from '../src/adapters/audit-log/sqlite-audit-log.js';
import { createGateway } from '../src/app/create-gateway.js';
import { measure, printTable, type BenchResult } from './support.js';
import { ADMIN_PASSWORD, signIn } from './bench-run.js';

const ROUNDS = Number(process.env.KEYGATE_BENCH_CHAIN_ROUNDS ?? 2);

/**
 * POST /keys through a gateway recording into SQLite: `chained` as a gateway runs (MAC chain, a
 * checkpoint every 1000 entries or 60 s), or the same store without a chain.
 */
async function postKeys(name: string, file: string, chained: boolean, dataDir: string): Promise<BenchResult> {
  const config = {
    keyServer: { kind: 'embedded' as const, adminPassword: ADMIN_PASSWORD },
    audit: { kind: 'sqlite' as const, file },
    auditIntegrity: { dataDir },
  };
  const gateway = await createGateway(config, { logger: new MemoryLogger(), ...(chained ? {} : { auditLog: SqliteAuditLog.open({ file }) }) });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const target = { name, url: `${url}/keys`, method: 'POST' as const, headers: { 'X-Session': await signIn(url) } };
  await measure({ ...target, durationSeconds: 1 }); // warm-up, not reported
  const result = await measure(target);
  await gateway.close();
  return result;
}

/** The mean of several runs of one target (alternated with the other, so drift hits both alike). */
function mean(runs: readonly BenchResult[]): BenchResult {
  const avg = (pick: (r: BenchResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return {
    ...runs[0]!,
    requestsPerSecond: avg((r) => r.requestsPerSecond),
    p99Ms: avg((r) => r.p99Ms),
    meanMs: avg((r) => r.meanMs),
    errors: avg((r) => r.errors),
    non2xx: avg((r) => r.non2xx),
  };
}

/** Issue 16's cost row: the chain may add at most 15% to POST /keys with the audit in SQLite. */
export async function benchAuditChain(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-chain-'));
  try {
    const unchained: BenchResult[] = [];
    const chained: BenchResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so that an order effect (a warmer disk, a busier machine) cancels out.
      const plain = () => postKeys('POST /keys, SQLite audit, unchained', join(dir, `plain-${round}.db`), false, dir);
      const sealed = () => postKeys('POST /keys, SQLite audit, chained', join(dir, `chained-${round}.db`), true, dir);
      if (round % 2 === 0) unchained.push(await plain()), chained.push(await sealed());
      else chained.push(await sealed()), unchained.push(await plain());
    }
    const [base, chain] = [mean(unchained), mean(chained)];
    printTable(`POST /keys with the audit in SQLite, chained vs unchained (mean of ${ROUNDS} alternated runs)`, [base, chain], base);
    const latency = ((chain.meanMs - base.meanMs) / base.meanMs) * 100;
    const throughput = (1 - chain.requestsPerSecond / base.requestsPerSecond) * 100;
    process.stdout.write(`chaining costs ${throughput.toFixed(1)}% of throughput and adds ${latency.toFixed(1)}% to mean latency (budget: 15%)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
