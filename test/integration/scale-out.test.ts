import { randomBytes } from 'node:crypto';
import test from 'ava';
import { untilKillAll } from '../_support/child-processes.js';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { type GatewayProcess, killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { createTestClient, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { buildProof, makeSigner } from '../_support/proof-builder.js';
import { killAllRedis, type RedisServer, spawnRedisOrReason } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';

/**
 * The scale-out deployment (architecture.md): two `keygate serve` processes behind one public origin,
 * sharing one Redis and one `keygate keyserver` daemon over TLS. Each step shows a gateway acting on
 * what the other one did.
 */
const redis: RedisServer | string = await spawnRedisOrReason();
const ORIGIN = 'https://keys.example.test';
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function login(gw: GatewayProcess, user: keyof typeof PASSWORDS): Promise<string> {
  const reply = await call(gw.url, 'POST', '/login', { body: { user, password: PASSWORDS[user] } });
  if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
  return reply.body.sessionId;
}

const generate = (gw: GatewayProcess, session: string) => call(gw.url, 'POST', '/keys', { headers: { 'X-Session': session } });

/** Polls /api/health until it is 200 (bounded): the gateways reconnect to Redis by themselves. */
async function healthy(gw: GatewayProcess): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await call(gw.url, 'GET', '/api/health')).status === 200) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

async function killAll(): Promise<void> {
  await killAllGateways();
  await killAllDaemons();
  await killAllRedis();
}

/** The daemon and two gateways over `server`; everything started is killed if a part fails to start. */
async function startTopology(server: RedisServer) {
  try {
    const fixtures = await daemonFixtures(SEED);
    // Mutual TLS: each gateway presents a certificate of its own, and the daemon is told both.
    const clients = await Promise.all([createTestClient(), createTestClient()]);
    const daemon = await spawnDaemon(untilKillAll, [
      ...['--data', ':memory:', '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin],
      ...clients.flatMap((client) => ['--client-fingerprint', client.fingerprint]),
    ]);
    const env = {
      TE_GATEWAY_KEYSERVER_URL: daemon.url,
      TE_GATEWAY_KEYSERVER_FINGERPRINT: daemon.fingerprint,
      TE_GATEWAY_REDIS_URL: server.url,
      TE_GATEWAY_SESSION_KEY: `${randomBytes(32).toString('base64')},${randomBytes(32).toString('base64')}`,
      TE_GATEWAY_REDIS_TIMEOUT_MS: '300',
      // One origin in front of both: a proof's htu names it, whichever gateway receives the request.
      TE_GATEWAY_PUBLIC_ORIGIN: ORIGIN,
    };
    const [a, b] = await Promise.all(
      clients.map((client) =>
        spawnGateway(untilKillAll, {
          ...env,
          TE_GATEWAY_KEYSERVER_CLIENT_CERT: client.certPath,
          TE_GATEWAY_KEYSERVER_CLIENT_KEY: client.keyPath,
        }),
      ),
    );
    return { daemon, a: a!, b: b! };
  } catch (error) {
    await killAll();
    throw error;
  }
}

// Settled before any test is declared: ava wants every declaration in the first turn.
const topology = typeof redis === 'string' ? undefined : await startTopology(redis);

if (typeof redis === 'string' || topology === undefined) {
  skipAll('scale-out integration', typeof redis === 'string' ? redis : 'no topology');
} else {
  test.after.always(killAll);
  const { daemon, a, b } = topology;

  test.serial('a session minted on A works on B, and a logout on B ends it on A', async (t) => {
    const alice = await login(a, 'alice');
    const made = await generate(b, alice);
    t.is(made.status, 200);
    t.is((await call(b.url, 'GET', '/api/session', { headers: bearer(alice) })).body.user, 'alice');
    t.is((await call(a.url, 'GET', '/api/sessions', { headers: bearer(alice) })).body.items.length, 1);
    t.is((await call(b.url, 'POST', '/logout', { headers: { 'X-Session': alice } })).status, 200);
    const refused = await generate(a, alice);
    t.is(refused.status, 401);
    t.is(refused.body.error, 'unknown or expired session');
  });

  test.serial('a proof accepted by A is PROOF_REPLAYED at B; a fresh proof is accepted at B', async (t) => {
    const alice = await login(a, 'alice');
    const ttag = (await generate(a, alice)).body.ttag;
    const signer = await makeSigner('ES256');
    const minted = await call(a.url, 'POST', '/api/session/scoped', {
      headers: bearer(alice),
      body: { objects: [ttag], senderKey: signer.publicJwk },
    });
    t.is(minted.status, 201);
    const session = minted.body.sessionId as string;
    const proofFor = () =>
      buildProof(signer, { method: 'GET', htu: `${ORIGIN}/api/session`, credential: session, body: Buffer.alloc(0) }, Date.now());
    const headers = { ...bearer(session), DPoP: proofFor() };
    t.is((await call(a.url, 'GET', '/api/session', { headers })).status, 200);
    const replayed = await call(b.url, 'GET', '/api/session', { headers });
    t.is(replayed.status, 401);
    t.is(replayed.body.code, 'PROOF_REPLAYED');
    const fresh = await call(b.url, 'GET', '/api/session', { headers: { ...bearer(session), DPoP: proofFor() } });
    t.is(fresh.status, 200);
    t.is(fresh.body.kind, 'scoped');
  });

  test.serial('Redis stopped: both answer 503 / 500 and report it; restarted on its data, sessions are back on both', async (t) => {
    const alice = await login(a, 'alice');
    t.is((await generate(b, alice)).status, 200);
    await redis.stop();
    try {
      for (const gw of [a, b]) {
        const api = await call(gw.url, 'GET', '/api/session', { headers: bearer(alice) });
        t.is(api.status, 503);
        t.like(api.body, { code: 'SESSION_STORE_UNAVAILABLE', retryable: true, scope: 'process' });
        t.truthy(api.headers.get('retry-after'));
        const root = await generate(gw, alice);
        t.is(root.status, 500);
        t.is(root.body.error, 'session store unavailable');
        const health = await call(gw.url, 'GET', '/health');
        t.is(health.body.ok, false);
        const apiHealth = await call(gw.url, 'GET', '/api/health');
        t.is(apiHealth.status, 503);
        t.is(apiHealth.body.checks.sessionStore, 'unavailable');
      }
    } finally {
      // Stopped with SIGTERM, Redis saved its data; it comes back on the same port and directory.
      await redis.restart();
    }
    t.true(await healthy(a));
    t.true(await healthy(b));
    t.is((await generate(a, alice)).status, 200, 'the session outlived the Redis restart, on A');
    t.is((await generate(b, alice)).status, 200, 'and on B');
  });

  test.serial('both gateways stop gracefully on SIGTERM', async (t) => {
    t.deepEqual(await Promise.all([a.stop(), b.stop()]), [0, 0]);
    t.is(await daemon.stop(), 0);
  });
}
