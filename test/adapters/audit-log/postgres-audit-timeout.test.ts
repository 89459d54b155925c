import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import test from 'ava';
import { PostgresAuditLog } from '../../../src/adapters/audit-log/postgres-audit-log.js';
import { startTestPostgres } from '../../_support/postgres.js';
import { testUnless } from '../../_support/skip.js';
import { auditRecord } from '../../ports/audit-log.contract.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const check = testUnless(postgres.reason);

/** A TCP relay to PostgreSQL that can hang: from `hang()` on, it accepts and forwards nothing either way. */
async function hangingRelay(t: import('ava').ExecutionContext, target: URL): Promise<{ url: string; hang(): void }> {
  let hung = false;
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    sockets.add(client);
    if (hung) return;
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    client.on('data', (chunk) => hung || upstream.write(chunk));
    upstream.on('data', (chunk) => hung || client.write(chunk));
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    relay.close();
  });
  await new Promise<void>((ready) => relay.listen(0, '127.0.0.1', ready));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as AddressInfo).port);
  return {
    url: url.toString(),
    hang: () => {
      hung = true;
    },
  };
}

check('a PostgreSQL that stops answering: pool wait and statement together end within timeoutMs', async (t) => {
  const relay = await hangingRelay(t, new URL(postgres.url!));
  const log = await PostgresAuditLog.open({ url: relay.url, timeoutMs: 30_000, poolSize: 1, schema: `timeout_${process.pid}` });
  await log.close();
  const timeoutMs = 600;
  const bounded = await PostgresAuditLog.open({ url: relay.url, timeoutMs, poolSize: 1, schema: `timeout_${process.pid}` });
  t.teardown(() => bounded.close().catch(() => undefined));
  await bounded.append(auditRecord());
  relay.hang();
  // The first call holds the pool's one connection on a silent server; the next ones wait for the pool.
  const started = performance.now();
  const calls = [bounded.append(auditRecord()), bounded.ping(), bounded.query({})];
  for (const outcome of await Promise.allSettled(calls)) {
    t.is(outcome.status, 'rejected');
    if (outcome.status === 'rejected') t.is((outcome.reason as { code?: string }).code, 'AUDIT_UNAVAILABLE');
  }
  const elapsed = performance.now() - started;
  t.true(elapsed < timeoutMs + 1_000, `answered after ${Math.round(elapsed)} ms`);
});
