import { loadavg } from 'node:os';
import { benchAudit } from './audit.bench.js';
import { benchAuditChain } from './audit-chain.bench.js';
import { benchBatch } from './batch.bench.js';
import { benchDpop } from './dpop.bench.js';
import { CONNECTIONS, SECONDS } from './bench-run.js';
import { benchFigures } from './figures.bench.js';
import { printFigures } from './figure-table.js';
import { benchGateway } from './gateway.bench.js';
import { benchKeyServer } from './keyserver.bench.js';
import { benchPostgresStore } from './postgres-store.bench.js';
import { benchProofVerification } from './proof.bench.js';
import { benchRedis } from './redis.bench.js';

/**
 * `npm run bench`: every figure of the performance table in one run, each beside its floor measured
 * in the same run, on loopback, the load generator in a process of its own. `KEYGATE_BENCH_ALL=1`
 * adds the older detailed benches (proof verification, Redis, audit stores, scale-out).
 */
const started = Date.now();
process.stdout.write(
  `keygate bench: ${SECONDS}s per run after a 1s warm-up, ${CONNECTIONS} connections, node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}\n`,
);
printFigures(await benchFigures());
// The audit chain's cost: POST /keys with the SQLite audit, chained beside unchained, in the same run.
await benchAuditChain();
// The key server's store: a daemon on PostgreSQL beside one on SQLite, POST /keys and export.
await benchPostgresStore();
await benchBatch();
if (process.env.KEYGATE_BENCH_ALL === '1') {
  await benchGateway();
  await benchDpop();
  await benchProofVerification();
  await benchKeyServer();
  await benchRedis();
  await benchAudit();
}
process.stdout.write(`\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
// Child processes and sockets of the runs are closed; nothing else should hold the process open.
process.exit(0);
