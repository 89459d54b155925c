import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { openAuditLog } from '../src/app/adapters.js';
import type { AuditLog } from '../src/ports/audit-log.port.js';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway } from '../src/app/create-gateway.js';
import { newAuditId } from '../src/domain/audit/audit.js';
import { CryptoRandom } from '../src/adapters/random/crypto-random.js';
import { startTestPostgres } from '../test/_support/postgres.js';
import { CONNECTIONS, measure, printTable, type BenchResult } from './support.js';
import { ADMIN_PASSWORD, signIn } from './bench-run.js';

type AuditConfig = NonNullable<GatewayConfigInput['audit']>;

const WRITES = Number(process.env.KEYGATE_BENCH_AUDIT_WRITES ?? 2000);
const random = new CryptoRandom();

/** One sensitive operation's writes, as a request makes them: a pending append, then its completion. */
async function sensitiveWrites(log: AuditLog): Promise<void> {
  const id = newAuditId(random);
  await log.append({ id, at: Date.now(), requestId: 'bench', principal: 'admin', operation: 'keys.generate', outcome: 'pending', status: 0 });
  await log.complete(id, { outcome: 'ok', status: 200, object: 'q83vEjRWeJCrze8SNFZ4kA==' });
}

/**
 * What the audit store adds to one sensitive operation, in microseconds: `alone`, WRITES operations one
 * after the other (the latency a request pays); `concurrent`, CONNECTIONS writers at once (wall time per
 * operation, where a store can share commits).
 */
async function writeCost(audit: AuditConfig): Promise<{ alone: number; concurrent: number }> {
  const log = await openAuditLog(audit as never, new MemoryLogger());
  const time = async (run: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - started) / 1000 / WRITES;
  };
  const alone = await time(async () => {
    for (let i = 0; i < WRITES; i += 1) await sensitiveWrites(log);
  });
  const perWriter = Math.ceil(WRITES / CONNECTIONS);
  const concurrent = await time(() =>
    Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let i = 0; i < perWriter; i += 1) await sensitiveWrites(log);
      }),
    ),
  );
  await log.close();
  return { alone, concurrent };
}

/** POST /keys through a gateway recording into `audit`. */
async function generateThroughput(name: string, audit: AuditConfig): Promise<BenchResult> {
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, audit }, { logger: new MemoryLogger() });
  const { url } = await gateway.listen(0, '127.0.0.1');
  const target = { name: `POST /keys, ${name}`, url: `${url}/keys`, method: 'POST' as const, headers: { 'X-Session': await signIn(url) } };
  await measure({ ...target, durationSeconds: 1 }); // warm-up, not reported
  const result = await measure(target);
  await gateway.close();
  return result;
}

/** POST /keys with the memory, SQLite and (when one can be had) PostgreSQL audit log, in one run. */
export async function benchAudit(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-bench-audit-'));
  const postgres = startTestPostgres({ durable: true });
  const stores: [string, (run: string) => AuditConfig][] = [
    ['audit in memory', () => ({ kind: 'memory' })],
    ['audit in SQLite (WAL, FULL)', (run) => ({ kind: 'sqlite', file: join(dir, `${run}.db`) })],
  ];
  if (postgres.url !== undefined) stores.push(['audit in PostgreSQL (fsync on)', (run) => ({ kind: 'postgres', url: postgres.url!, schema: `bench_${run}` })]);
  try {
    const rows: BenchResult[] = [];
    const costs: { alone: number; concurrent: number }[] = [];
    for (const [name, config] of stores) {
      costs.push(await writeCost(config('writes')));
      rows.push(await generateThroughput(name, config('http')));
    }
    printTable('POST /keys by audit store (a pending append, then its completion, per request)', rows, rows[0]);
    if (postgres.reason !== undefined) process.stdout.write(`PostgreSQL not measured: ${postgres.reason}\n`);
    process.stdout.write(`\naudit writes of one sensitive operation (append + complete), ${WRITES} operations\n`);
    process.stdout.write(`${'store'.padEnd(44)}${'alone us'.padStart(12)}${`${CONNECTIONS} at once us`.padStart(18)}\n`);
    stores.forEach(([name], i) => {
      process.stdout.write(`${name.padEnd(44)}${costs[i]!.alone.toFixed(0).padStart(12)}${costs[i]!.concurrent.toFixed(0).padStart(18)}\n`);
    });
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
