import test from 'ava';
import { signIn } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { clientConfig, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';
import { postgresProcesses, stopProcesses } from '../_support/stopped-processes.js';

/**
 * TE_GATEWAY_AUDIT_TIMEOUT_MS and TE_GATEWAY_KEYSERVER_TIMEOUT_MS bound a request's whole wait at each
 * dependency, within half a second: a request that makes several audit writes or key-server calls
 * shares one budget per dependency. Measured through HTTP, against a really hung PostgreSQL and a
 * really stopped daemon (SIGSTOP: the kernel still accepts connections, nothing answers).
 */
const TIMEOUT_MS = 1_000;
const SLACK_MS = 500;

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
test.after.always(killAllDaemons);
const withPostgres = testUnless(postgres.reason);

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

withPostgres('a hung PostgreSQL holds a key creation (pending record and outcome) no longer than the audit timeout', async (t) => {
  const gw = await startGateway(t, {
    audit: { kind: 'postgres', url: postgres.url!, timeoutMs: TIMEOUT_MS, schema: `bounds_${process.pid}` },
  });
  const alice = await signIn(gw, 'alice');
  t.is((await alice.post('/api/keys', {})).status, 201);

  stopProcesses(t, postgresProcesses(Number(new URL(postgres.url!).port)));
  for (const attempt of [1, 2]) {
    const { value: reply, ms } = await timed(() => alice.post('/api/keys', {}));
    t.is(reply.status, 503, reply.text);
    t.is(reply.body.code, 'AUDIT_UNAVAILABLE');
    t.true(ms < TIMEOUT_MS + SLACK_MS, `attempt ${attempt} answered after ${Math.round(ms)} ms`);
  }
  const { value: login, ms } = await timed(() => gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } }));
  t.is(login.status, 502, login.text);
  t.true(ms < TIMEOUT_MS + SLACK_MS, `the login answered after ${Math.round(ms)} ms`);
});

test('a stopped daemon holds a login (a pending revocation retried, then the login) no longer than the key-server timeout', async (t) => {
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
  const keyServer = {
    kind: 'tls' as const,
    url: daemon.url,
    fingerprint: daemon.fingerprint,
    timeoutMs: TIMEOUT_MS,
    resumeSessions: false,
    ...(await clientConfig()),
  };
  const gw = await startGateway(t, { keyServer });
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');

  stopProcesses(t, [daemon.child.pid!]);
  // Alice's logout cannot revoke her token at the key server: the revocation is kept for a retry.
  const logout = await timed(() => alice.del('/api/session'));
  t.true(logout.ms < TIMEOUT_MS + SLACK_MS, `the first logout answered after ${Math.round(logout.ms)} ms`);

  // The next login first retries that revocation, then logs in: both at the stopped daemon.
  const { value: login, ms } = await timed(() => gw.call('POST', '/login', { body: { user: 'carol', password: PASSWORDS.carol } }));
  t.is(login.status, 502, login.text);
  t.regex(login.body.detail, /key server unavailable|did not answer/);
  t.true(ms < TIMEOUT_MS + SLACK_MS, `the login answered after ${Math.round(ms)} ms`);

  // Bob's logout retries the revocation and revokes his own token: one budget for both.
  const second = await timed(() => bob.del('/api/session'));
  t.true(second.ms < TIMEOUT_MS + SLACK_MS, `the second logout answered after ${Math.round(second.ms)} ms`);
});
