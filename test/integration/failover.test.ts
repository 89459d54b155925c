import { join } from 'node:path';
import test from 'ava';
import { PASSWORDS, SEED } from '../_support/gateway.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call, type Reply } from '../_support/http.js';
import { clientEnv, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

/**
 * A `keygate serve` process given two `keygate keyserver` daemons through its environment, one of them
 * SIGKILLed under a stream of logins. Each daemon has a SQLite store of its own, seeded with the same
 * principals: a password login needs nothing the two do not both hold.
 */
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);
test.after.always(killAllGateways);

const TIMEOUT_MS = 5_000;
/**
 * Failover is due within this much of the kill (docs/deployment.md "Gateways and several daemons"),
 * beyond the time a login takes anyway on this machine (the median before the kill).
 */
const FAILOVER_MS = 2_000;
const USERS = ['alice', 'bob', 'carol'] as const;

function daemonArgs(data: string): string[] {
  return ['--data', join(fixtures.dir, data), '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin];
}

interface Attempt {
  readonly surface: 'api' | 'root';
  readonly started: number;
  readonly ms: number;
  readonly reply: Reply;
}

/** One login on each surface, timed. */
async function logins(url: string, user: (typeof USERS)[number]): Promise<Attempt[]> {
  const body = { user, password: PASSWORDS[user] };
  const timed = async (surface: Attempt['surface'], path: string): Promise<Attempt> => {
    const started = Date.now();
    const reply = await call(url, 'POST', path, { body });
    return { surface, started, ms: Date.now() - started, reply };
  };
  return [await timed('api', '/api/session'), await timed('root', '/login')];
}

/** What a login may answer while a daemon dies: success, or the surface's own key-server failure. */
function acceptable({ surface, reply }: Attempt): boolean {
  if (surface === 'api')
    return reply.status === 201 || (reply.status === 503 && reply.body.retryable === true && reply.body.code === 'KEY_SERVER_UNAVAILABLE');
  return reply.status === 200 || (reply.status === 502 && reply.body.error === 'login failed' && Object.keys(reply.body).length <= 2);
}

test('a gateway on two daemons (TE_GATEWAY_KEYSERVER_URL) keeps serving through the other when one is SIGKILLed', async (t) => {
  const [first, second] = await Promise.all([spawnDaemon(t, daemonArgs('first.db')), spawnDaemon(t, daemonArgs('second.db'))]);
  const gw = await spawnGateway(t, {
    ...(await clientEnv()),
    TE_GATEWAY_KEYSERVER_URL: `${first.url}, ${second.url}`,
    TE_GATEWAY_KEYSERVER_FINGERPRINT: `${first.fingerprint},${second.fingerprint}`,
    TE_GATEWAY_KEYSERVER_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  const before = await call(gw.url, 'GET', '/api/health');
  t.is(before.status, 200, before.text);
  t.deepEqual(before.body.keyServers, [
    { url: first.url, fingerprint: first.fingerprint, ok: true },
    { url: second.url, fingerprint: second.fingerprint, ok: true },
  ]);
  t.deepEqual((await call(gw.url, 'GET', '/health')).body.keyServers, before.body.keyServers);

  const attempts: Attempt[] = [];
  let killedAt = Number.POSITIVE_INFINITY;
  let stopAt = Number.POSITIVE_INFINITY;
  const worker = async (n: number) => {
    for (let i = n; Date.now() < stopAt; i += 1) attempts.push(...(await logins(gw.url, USERS[i % USERS.length]!)));
  };
  const workers = [0, 1, 2].map(worker);
  await new Promise((resolve) => setTimeout(resolve, 400));
  await first.kill();
  killedAt = Date.now();
  stopAt = killedAt + FAILOVER_MS + 1_000;
  await Promise.all(workers);

  t.log(`${attempts.length} logins, ${attempts.filter((a) => a.reply.status >= 300).length} failed (in flight at the kill)`);
  const unacceptable = attempts.filter((attempt) => !acceptable(attempt));
  t.deepEqual(
    unacceptable.map(({ surface, reply }) => `${surface} ${reply.status} ${reply.text}`),
    [],
  );
  const served = attempts.filter((attempt) => attempt.started < killedAt && attempt.reply.status < 300).map((attempt) => attempt.ms);
  t.true(served.length > 0, 'served before the kill');
  const loginMs = served.sort((a, b) => a - b)[Math.floor(served.length / 2)]!;
  t.true(
    attempts.every((attempt) => attempt.ms < TIMEOUT_MS + loginMs),
    `slowest: ${Math.max(...attempts.map((a) => a.ms))} ms (a login takes ${loginMs} ms)`,
  );
  const afterKill = attempts.filter((attempt) => attempt.started >= killedAt);
  t.true(afterKill.length > 0);
  t.deepEqual(
    afterKill.filter((attempt) => attempt.reply.status >= 300).map(({ surface, reply }) => `${surface} ${reply.status}`),
    [],
    'a login sent after the kill is served by the other daemon',
  );
  const firstServed = Math.min(...afterKill.map((attempt) => attempt.started + attempt.ms));
  t.true(
    firstServed - killedAt < FAILOVER_MS + loginMs,
    `served again ${firstServed - killedAt} ms after the kill (a login takes ${loginMs} ms)`,
  );

  const after = await call(gw.url, 'GET', '/api/health');
  t.is(after.status, 200, 'ok while one daemon serves');
  t.true(after.body.ok);
  t.deepEqual(
    after.body.keyServers.map((daemon: { ok: boolean }) => daemon.ok),
    [false, true],
  );
});

test('one CA (TE_GATEWAY_KEYSERVER_CA) for two daemons: both listed with the fingerprint each showed, and a login served with the first down', async (t) => {
  const withCert = (data: string) => [...daemonArgs(data), '--cert', fixtures.certPath, '--key', fixtures.keyPath];
  const [first, second] = await Promise.all([spawnDaemon(t, withCert('ca-first.db')), spawnDaemon(t, withCert('ca-second.db'))]);
  const gw = await spawnGateway(t, {
    ...(await clientEnv()),
    TE_GATEWAY_KEYSERVER_URL: `${first.url},${second.url}`,
    TE_GATEWAY_KEYSERVER_CA: fixtures.certPath,
    TE_GATEWAY_KEYSERVER_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  const health = await call(gw.url, 'GET', '/health');
  t.deepEqual(health.body.keyServers, [
    { url: first.url, fingerprint: first.fingerprint, ok: true },
    { url: second.url, fingerprint: second.fingerprint, ok: true },
  ]);
  await first.kill();
  const [api, root] = await logins(gw.url, 'alice');
  t.is(api!.reply.status, 201, api!.reply.text);
  t.is(root!.reply.status, 200, root!.reply.text);
});
