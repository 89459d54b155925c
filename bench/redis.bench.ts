import { randomBytes } from 'node:crypto';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway, type Gateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { killAllGateways, spawnGateway, type GatewayProcess } from '../test/_support/gateway-process.js';
import { clientEnv, daemonFixtures, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { startTestPostgres } from '../test/_support/postgres.js';
import { killAllRedis, spawnRedisOrReason, type RedisServer } from '../test/_support/redis.js';
import { CONNECTIONS, measure, printTable, type BenchResult } from './support.js';
import { ADMIN_PASSWORD, signIn } from './bench-run.js';

const sessionKey = () => randomBytes(32).toString('base64');

async function bearer(url: string): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await signIn(url)}` };
}

/** GET /api/session on an in-process gateway whose sessions live in `sessionStore`. */
async function lookupRow(name: string, sessionStore: GatewayConfigInput['sessionStore']): Promise<BenchResult> {
  const gateway: Gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...(sessionStore ? { sessionStore } : {}) },
    { logger: new MemoryLogger() },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  try {
    const target = { name, url: `${url}/api/session`, headers: await bearer(url) };
    await measure({ ...target, durationSeconds: 1 }); // warm-up: compiled code, open connections
    return await measure(target);
  } finally {
    await gateway.close();
  }
}

/**
 * Throughput of one `serve` process against two driven at once, with the same total connections.
 * Every /api request is audited: the gateways share one PostgreSQL audit log as the scale-out
 * deployment does (`auditUrl`), else each keeps a SQLite log of its own.
 */
async function scaleOutRows(redis: RedisServer, auditUrl: string | undefined): Promise<BenchResult[]> {
  const fixtures = await daemonFixtures({ principals: [] });
  const daemon = await spawnDaemon(untilKillAll, ['--data', ':memory:', '--port', '0', '--seed', fixtures.seedPath, '--admin-password', ADMIN_PASSWORD]);
  const env = {
    TE_GATEWAY_KEYSERVER_URL: daemon.url,
    TE_GATEWAY_KEYSERVER_FINGERPRINT: daemon.fingerprint,
    // Mutual TLS: the certificate the spawned daemon trusts.
    ...(await clientEnv()),
    TE_GATEWAY_REDIS_URL: redis.url,
    TE_GATEWAY_SESSION_KEY: sessionKey(),
    ...(auditUrl === undefined ? {} : { TE_GATEWAY_AUDIT_URL: auditUrl }),
  };
  const [a, b] = (await Promise.all([spawnGateway(untilKillAll, env), spawnGateway(untilKillAll, env)])) as [GatewayProcess, GatewayProcess];
  const headers = await bearer(a.url);
  const target = (gw: GatewayProcess, name: string, connections: number) => ({ name, url: `${gw.url}/api/session`, headers, connections });
  await Promise.all([a, b].map((gw) => measure({ ...target(gw, 'warm-up', CONNECTIONS), durationSeconds: 1 })));
  const one = await measure(target(a, `one gateway, ${2 * CONNECTIONS} connections`, 2 * CONNECTIONS));
  const [onA, onB] = await Promise.all([
    measure(target(a, `  gateway A, ${CONNECTIONS} connections`, CONNECTIONS)),
    measure(target(b, `  gateway B, ${CONNECTIONS} connections`, CONNECTIONS)),
  ]);
  const both: BenchResult = {
    name: 'two gateways at once, total',
    requestsPerSecond: onA.requestsPerSecond + onB.requestsPerSecond,
    p99Ms: Math.max(onA.p99Ms, onB.p99Ms),
    meanMs: (onA.meanMs + onB.meanMs) / 2,
    errors: onA.errors + onB.errors,
    non2xx: onA.non2xx + onB.non2xx,
  };
  await Promise.all([a.stop(), b.stop(), daemon.stop()]);
  return [one, both, onA, onB];
}

/**
 * Sessions in Redis: the cost of a session lookup against the memory store, and what a second
 * gateway process adds on this machine (its cores are shared by both gateways, Redis, the key-server
 * daemon and the load generator, so the second row shows this machine's ceiling, not a cluster's).
 */
export async function benchRedis(): Promise<void> {
  const redis = await spawnRedisOrReason();
  if (typeof redis === 'string') {
    process.stdout.write(`\nsessions in Redis: not measured, ${redis}\n`);
    return;
  }
  const postgres = startTestPostgres({ durable: true });
  try {
    const memory = await lookupRow('GET /api/session, memory store', { kind: 'memory' });
    const inRedis = await lookupRow('GET /api/session, Redis store', { kind: 'redis', url: redis.url, sessionKeys: [sessionKey()] });
    printTable('session lookup, in-process gateway, embedded key server, audit in memory', [memory, inRedis], memory);
    const [one, ...rest] = await scaleOutRows(redis, postgres.url);
    const audit = postgres.url === undefined ? `SQLite per process (${postgres.reason})` : 'one PostgreSQL (fsync on)';
    printTable(`scale-out: GET /api/session through \`keygate serve\` processes sharing Redis and a key-server daemon; audit: ${audit}`, [one!, ...rest], one);
  } finally {
    await postgres.stop();
    await killAllGateways();
    await killAllDaemons();
    await killAllRedis();
  }
}
