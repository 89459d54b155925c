import { type GatewayProcess, killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call, type Reply } from '../_support/http.js';
import { clientEnv } from '../_support/keyserver-daemon.js';
import { createDatabase, postgresForTests, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';

/**
 * The high-availability topology under faults (docs/deployment.md, "High availability"): two
 * `keygate keyserver` daemons on one PostgreSQL, two `keygate serve` gateways each given both daemons,
 * and a write load through both gateways (keys made, granted, revoked, on /api and the root operations). One daemon is SIGKILLed, then
 * PostgreSQL itself is restarted. Every write a gateway acknowledged is checked afterwards.
 */
const { server, maybe } = postgresForTests();
const TIMEOUT_MS = 5_000;
/** Requests go to the other daemon within this much of the kill. */
const FAILOVER_MS = 2_000;
const PASSWORDS = { alice: 'alice-pw', bob: 'bob-pw' } as const;

type Owner = keyof typeof PASSWORDS;
interface Ack {
  readonly gateway: GatewayProcess;
  readonly session: string;
  readonly ttag: string;
  /** The last acknowledged ACL change for carol: granted `read`, or revoked. */
  carol?: 'granted' | 'revoked';
  /**
   * A change for carol sent after that one whose outcome is unknown (`outcomeMayHaveLanded`): the key
   * server may have made it, so the ACL may show it instead.
   */
  unknown?: 'granted' | 'revoked';
}
interface Attempt {
  readonly surface: 'api' | 'root';
  readonly what: string;
  readonly ttag?: string;
  readonly started: number;
  readonly ms: number;
  readonly reply: Reply;
}

const bearer = (session: string) => ({ Authorization: `Bearer ${session}` });

async function signIn(gateway: GatewayProcess, user: Owner): Promise<string> {
  const reply = await call(gateway.url, 'POST', '/api/session', { body: { user, password: PASSWORDS[user] } });
  if (reply.status !== 201) throw new Error(`sign-in ${user}: ${reply.status} ${reply.text}`);
  return reply.body.sessionId;
}

/**
 * A failure the fault may cause: on /api, 503 retryable; on the seven root operations, their own
 * plain answer, 500 `{ error, detail? }` (docs/spec.md §2). Anything else is a defect.
 */
function tolerated(surface: 'api' | 'root', reply: Reply): boolean {
  if (surface === 'api') return reply.status === 503 && reply.body?.retryable === true;
  return (
    reply.status === 500 &&
    typeof reply.body?.error === 'string' &&
    Object.keys(reply.body).every((field) => field === 'error' || field === 'detail')
  );
}

/**
 * A failed write the key server may still have made: on /api, a 503 saying `outcome: "unknown"` (its
 * call reached the key server and no answer came; without `outcome` the write did not happen, docs/spec.md
 * §4.1); on the root operations any failure, whose plain answer cannot say which.
 */
function outcomeMayHaveLanded(surface: 'api' | 'root', reply: Reply): boolean {
  return surface === 'api' ? reply.body?.outcome === 'unknown' : reply.status >= 500;
}

/** Notes the answer to a change for carol: acknowledged, it is the key's state; of unknown outcome, it may be. */
function settle(ack: Ack, change: 'granted' | 'revoked', surface: 'api' | 'root', reply: Reply, acknowledged: boolean): void {
  if (acknowledged) {
    ack.carol = change;
    delete ack.unknown;
  } else if (outcomeMayHaveLanded(surface, reply)) ack.unknown = change;
}

/**
 * Writes through one gateway until `until()` says stop, on /api and on the root operations in turn: a
 * key made, carol granted on it, and every other key's grant revoked. What the gateway acknowledged
 * goes into `acks`, every request into `attempts`.
 */
async function writeLoad(gateway: GatewayProcess, session: string, until: () => boolean, acks: Ack[], attempts: Attempt[]): Promise<void> {
  const timed = async (surface: 'api' | 'root', what: string, method: string, path: string, body?: unknown, ttag?: string) => {
    const headers = surface === 'api' ? bearer(session) : { 'X-Session': session };
    const started = Date.now();
    const reply = await call(gateway.url, method, path, { headers, ...(body === undefined ? {} : { body }) });
    attempts.push({ surface, what, started, ms: Date.now() - started, reply, ...(ttag === undefined ? {} : { ttag }) });
    return reply;
  };
  for (let round = 0; !until(); round += 1) {
    const revoke = round % 4 >= 2;
    if (round % 2 === 0) {
      const made = await timed('api', 'create', 'POST', '/api/keys', { keyLen: 16 });
      if (made.status !== 201) continue;
      const ack: Ack = { gateway, session, ttag: made.body.ttag };
      acks.push(ack);
      const path = `/api/keys/${encodeURIComponent(ack.ttag)}/acl/carol`;
      const granted = await timed('api', 'grant', 'PUT', path, { rights: ['read'] }, ack.ttag);
      settle(ack, 'granted', 'api', granted, granted.status === 200);
      if (!revoke) continue;
      const revoked = await timed('api', 'revoke', 'DELETE', path, undefined, ack.ttag);
      settle(ack, 'revoked', 'api', revoked, revoked.status === 204);
    } else {
      const made = await timed('root', 'create', 'POST', '/keys', {});
      if (made.status !== 200) continue;
      const ack: Ack = { gateway, session, ttag: made.body.ttag };
      acks.push(ack);
      const granted = await timed('root', 'grant', 'POST', '/keys/grant', { ttag: ack.ttag, grantee: 'carol' }, ack.ttag);
      settle(ack, 'granted', 'root', granted, granted.status === 200);
      if (!revoke) continue;
      const revoked = await timed('root', 'revoke', 'POST', '/keys/revoke', { ttag: ack.ttag, grantee: 'carol' }, ack.ttag);
      settle(ack, 'revoked', 'root', revoked, revoked.status === 200);
    }
  }
}

/**
 * Every acknowledged key reads back, and its ACL shows carol exactly as the last acknowledged change
 * left her (not there when none was), or as a later change of unknown outcome would have. A change of
 * unknown outcome is settled by the read that shows it: from then on it counts as acknowledged, so a
 * later check wants the same. A wrong key is named with every change sent for it and its answer.
 */
async function unreadable(acks: readonly Ack[], attempts: readonly Attempt[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const ack of acks) {
    const path = `/api/keys/${encodeURIComponent(ack.ttag)}`;
    const view = await call(ack.gateway.url, 'GET', path, { headers: bearer(ack.session) });
    if (view.status !== 200) wrong.push(`${ack.ttag}: read ${view.status}`);
    const acl = await call(ack.gateway.url, 'GET', `${path}/acl`, { headers: bearer(ack.session) });
    const carol = (acl.body?.items ?? []).some((item: { principal: string }) => item.principal === 'carol');
    const allowed = [ack.carol === 'granted', ...(ack.unknown === undefined ? [] : [ack.unknown === 'granted'])];
    if (acl.status === 200 && allowed.includes(carol)) {
      if (ack.unknown !== undefined) {
        ack.carol = carol ? 'granted' : 'revoked';
        delete ack.unknown;
      }
      continue;
    }
    const sent = attempts
      .filter((attempt) => attempt.ttag === ack.ttag)
      .map(({ surface, what, reply }) => `${surface} ${what} ${reply.status}`);
    wrong.push(`${ack.ttag}: acl ${acl.status}, carol ${carol}, acknowledged ${ack.carol ?? 'nothing'} (${sent.join(', ')})`);
  }
  return wrong;
}

/** Polls until a key can be made through the gateway (bounded): the daemons reconnect on their own. */
async function writable(gateway: GatewayProcess, session: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await call(gateway.url, 'POST', '/api/keys', { headers: bearer(session), body: { keyLen: 16 } })).status === 201) return true;
    await new Promise((done) => setTimeout(done, 200));
  }
  return false;
}

maybe(
  'two daemons on one PostgreSQL, two gateways, a write load: a daemon SIGKILLed and PostgreSQL restarted lose no acknowledged write',
  async (t) => {
    const database = await createDatabase(server.url!);
    const fixtures = sharedFixtures();
    const first = await spawnPostgresDaemon(t, database, fixtures);
    const second = await spawnPostgresDaemon(t, database, fixtures);
    const daemonEnv = {
      ...(await clientEnv()),
      TE_GATEWAY_KEYSERVER_URL: `${first.url},${second.url}`,
      TE_GATEWAY_KEYSERVER_FINGERPRINT: `${first.fingerprint},${second.fingerprint}`,
      TE_GATEWAY_KEYSERVER_TIMEOUT_MS: String(TIMEOUT_MS),
    };
    const gateways = [await spawnGateway(t, daemonEnv), await spawnGateway(t, daemonEnv)];
    t.teardown(killAllGateways);
    const sessions = [await signIn(gateways[0]!, 'alice'), await signIn(gateways[1]!, 'bob')];

    // A daemon SIGKILLed under the load.
    const acks: Ack[] = [];
    const attempts: Attempt[] = [];
    let stopAt = Number.POSITIVE_INFINITY;
    const until = () => Date.now() >= stopAt;
    const load = gateways.map((gateway, n) => writeLoad(gateway, sessions[n]!, until, acks, attempts));
    await new Promise((done) => setTimeout(done, 1_500));
    await first.kill();
    const killedAt = Date.now();
    stopAt = killedAt + FAILOVER_MS + 2_000;
    await Promise.all(load);

    t.log(`${attempts.length} writes, ${attempts.filter((a) => a.reply.status >= 300).length} refused, ${acks.length} keys acknowledged`);
    t.log(`${acks.filter((ack) => ack.unknown !== undefined).length} keys with a change for carol of unknown outcome`);
    t.deepEqual(
      attempts
        .filter(({ surface, reply }) => reply.status >= 300 && !tolerated(surface, reply))
        .map(({ surface, what, reply }) => `${surface} ${what} ${reply.status} ${reply.text}`),
      [],
      'the only failures are 503 retryable on /api, 500 {error} on the root operations',
    );
    const slowest = Math.max(...attempts.map((attempt) => attempt.ms));
    t.true(slowest < TIMEOUT_MS + 1_000, `no request hangs past the timeout (slowest ${slowest} ms)`);
    const afterKill = attempts.filter((attempt) => attempt.started >= killedAt);
    t.true(afterKill.length > 0, 'writes were sent after the kill');
    const servedAgain = Math.min(
      ...afterKill.filter((attempt) => attempt.reply.status < 300).map((attempt) => attempt.started + attempt.ms),
    );
    t.true(servedAgain - killedAt < FAILOVER_MS, `a write was served again ${servedAgain - killedAt} ms after the kill`);
    t.true(acks.some((ack) => ack.carol !== undefined) && acks.length >= 4, 'the load acknowledged writes of each kind');
    t.deepEqual(await unreadable(acks, attempts), [], 'every acknowledged write is readable through the surviving daemon');

    // PostgreSQL restarted: the surviving daemon recovers on its own.
    t.truthy(server.restart, 'the test server can be restarted');
    server.restart!();
    for (const [n, gateway] of gateways.entries())
      t.true(await writable(gateway, sessions[n]!, 20_000), `gateway ${n} writes again after PostgreSQL restarted`);
    t.deepEqual(await unreadable(acks, attempts), [], 'every acknowledged write survived the restart');
    const health = await call(gateways[0]!.url, 'GET', '/api/health');
    t.is(health.status, 200, health.text);
    t.deepEqual(
      health.body.keyServers.map((daemon: { ok: boolean }) => daemon.ok),
      [false, true],
    );
  },
);
