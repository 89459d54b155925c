import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import test from 'ava';
import { MemoryLogger } from '../../src/adapters/logger/memory-logger.js';
import { createGateway } from '../../src/app/create-gateway.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { call } from '../_support/http.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

test.after.always(killAllDaemons);

/** A TCP relay to `port` that holds every chunk the client sends for `delayMs`: a daemon slow at every step. */
async function stallingRelay(t: import('ava').ExecutionContext, port: number, delayMs: number): Promise<number> {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => setTimeout(() => upstream.writable && upstream.write(chunk), delayMs));
    upstream.on('data', (chunk) => client.writable && client.write(chunk));
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    relay.close();
  });
  await new Promise<void>((ready) => relay.listen(0, '127.0.0.1', ready));
  return (relay.address() as AddressInfo).port;
}

test('TE_GATEWAY_KEYSERVER_TIMEOUT_MS bounds a login as a whole, not each step of it', async (t) => {
  const fixtures = await daemonFixtures(SEED);
  const daemon = await spawnDaemon(t, [
    '--data',
    ':memory:',
    '--port',
    '0',
    '--seed',
    fixtures.seedPath,
    '--cert',
    fixtures.certPath,
    '--key',
    fixtures.keyPath,
  ]);
  const timeoutMs = 1_000;
  // Each step (handshake legs, the two SRP calls) stays under the timeout; together they exceed it.
  const port = await stallingRelay(t, daemon.port, 400);
  const client = await clientConfig();
  const login = async (budgetMs: number) => {
    const gateway = await createGateway(
      {
        keyServer: {
          kind: 'tls',
          url: `https://127.0.0.1:${port}`,
          fingerprint: daemon.fingerprint,
          ...client,
          timeoutMs: budgetMs,
          resumeSessions: false,
        },
      },
      { logger: new MemoryLogger() },
    );
    t.teardown(() => gateway.close());
    const { url } = await gateway.listen(0, '127.0.0.1');
    const started = performance.now();
    const reply = await call(url, 'POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
    return { reply, elapsed: performance.now() - started };
  };

  // With room enough, the login goes through the stalling relay, and its steps add up past the timeout.
  const unhurried = await login(30_000);
  t.is(unhurried.reply.status, 201, unhurried.reply.text);
  t.true(unhurried.elapsed > timeoutMs, `the steps took ${Math.round(unhurried.elapsed)} ms together`);

  // A per-step bound would let the same login through; the whole-request budget cuts it.
  const budgeted = await login(timeoutMs);
  t.is(budgeted.reply.status, 503, budgeted.reply.text);
  t.is(budgeted.reply.body.code, 'KEY_SERVER_UNAVAILABLE');
  t.true(budgeted.elapsed < 2 * timeoutMs, `answered after ${Math.round(budgeted.elapsed)} ms`);
});
