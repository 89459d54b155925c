import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { RedisReplayCache } from '../../src/adapters/replay-cache/redis-replay-cache.js';
import { sealingKeyring } from '../../src/domain/session/seal-token.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner, type ProofSigner } from '../_support/proof-builder.js';
import { killAllRedis, type RedisServer, spawnRedis, whyNoRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';

/** The real app on a real socket with its sessions and replay cache in Redis, and Redis failing. */
const servers = await Promise.all([spawnRedis(), spawnRedis()]).catch(whyNoRedis);
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

function redisGateway(t: ExecutionContext, server: RedisServer, overrides = {}): Promise<TestGateway> {
  return startGateway(
    t,
    {
      sessionStore: {
        kind: 'redis',
        url: server.url,
        sessionKeys: [randomBytes(32).toString('base64')],
        timeoutMs: 300,
        keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
      },
    },
    overrides,
  );
}

async function scopedSession(gw: TestGateway, signer: ProofSigner): Promise<string> {
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag;
  const reply = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], senderKey: signer.publicJwk },
  });
  if (reply.status !== 201) throw new Error(`scoped: ${reply.status} ${reply.text}`);
  return reply.body.sessionId;
}

async function healthy(gw: TestGateway): Promise<boolean> {
  for (let attempt = 0; attempt < 60; attempt++) {
    if ((await gw.call('GET', '/api/health')).status === 200) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

if (typeof servers === 'string') {
  skipAll('gateway over Redis', servers);
} else {
  const [main, other] = servers;
  test.after.always(killAllRedis);

  test.serial('sessions in Redis: login, use, list, logout, and health counts them', async (t) => {
    const gw = await redisGateway(t, main);
    const alice = await gw.login('alice');
    await gw.login('alice');
    t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 200);
    t.is((await gw.call('GET', '/api/sessions', { headers: bearer(alice) })).body.items.length, 2);
    t.deepEqual((await gw.call('GET', '/health')).body, { ok: true, ksFingerprint: gw.gateway.ksFingerprint, sessions: 2 });
    t.is((await gw.call('POST', '/logout', { headers: { 'X-Session': alice } })).status, 200);
    t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 401);
    t.is((await gw.call('GET', '/health')).body.sessions, 1);
  });

  test.serial('Redis down: 503 with Retry-After on /api, 500 on the seven operations, health not ok; then it heals', async (t) => {
    const gw = await redisGateway(t, main);
    const alice = await gw.login('alice');
    await main.stop();
    try {
      const api = await gw.call('GET', '/api/session', { headers: bearer(alice) });
      t.is(api.status, 503);
      t.like(api.body, { code: 'SESSION_STORE_UNAVAILABLE', retryable: true, scope: 'process' });
      t.is(api.headers.get('retry-after'), '2');
      const root = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
      t.is(root.status, 500);
      t.is(root.body.error, 'session store unavailable');
      const login = await gw.call('POST', '/login', { body: { user: 'bob', password: 'bob-password-2' } });
      t.is(login.status, 502, 'seed 000: a login that fails for any reason but the credential is 502');
      const health = await gw.call('GET', '/health');
      t.is(health.body.ok, false);
      const apiHealth = await gw.call('GET', '/api/health');
      t.is(apiHealth.status, 503);
      t.is(apiHealth.body.checks.sessionStore, 'unavailable');
      t.is(apiHealth.body.checks.keyServer, 'ok');
      t.false(JSON.stringify([api.body, root.body, health.body]).includes(String(main.port)), 'the Redis address stays out of responses');
    } finally {
      await main.restart();
    }
    t.true(await healthy(gw), 'back without a restart of the gateway');
    t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 200, 'the session was saved and loaded with Redis');
  });

  test.serial('replay cache down: a bound request is refused 503 (500 on the seven operations), never let through', async (t) => {
    const cache = await RedisReplayCache.connect({
      url: other.url,
      timeoutMs: 300,
      keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
      keyring: sealingKeyring([randomBytes(32)]),
      clock: { now: () => Date.now() },
    });
    const gw = await redisGateway(t, main, { replayCache: cache });
    const signer = await makeSigner('ES256');
    const session = await scopedSession(gw, signer);
    t.is((await gw.bound(signer, 'GET', '/api/session', { bearer: session })).status, 200);
    await other.stop();
    try {
      const api = await gw.bound(signer, 'GET', '/api/session', { bearer: session });
      t.is(api.status, 503);
      t.like(api.body, { code: 'SESSION_STORE_UNAVAILABLE', detail: 'replay cache unavailable', retryable: true, scope: 'process' });
      t.truthy(api.headers.get('retry-after'));
      const root = await gw.bound(signer, 'POST', '/keys', { xSession: session });
      t.is(root.status, 500);
      t.is(root.body.error, 'session store unavailable');
    } finally {
      await other.restart();
    }
  });
}
