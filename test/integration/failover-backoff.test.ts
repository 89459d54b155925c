import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { LONGEST_RETRY_MS } from '../../src/adapters/key-server/daemon-pool.js';
import { bearer } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { healthOnceChecked } from '../_support/health.js';
import { startHungListener } from '../_support/hung-listener.js';
import { clientConfig, type DaemonProcess, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

/**
 * The real gateway app on a real socket, reaching two daemons: which one a request goes to, when a
 * dead or hung one is skipped, and when it is tried again (a back-off on the gateway's manual clock).
 */
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);

const TIMEOUT_MS = 6_000;
/** An unused, well-formed pin: the hung listener never shows a certificate anyway. */
const HUNG_PIN = 'ab'.repeat(32);

function daemonArgs(data: string, port = 0): string[] {
  return ['--data', join(fixtures.dir, data), '--port', String(port), '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin];
}

async function gatewayOn(t: ExecutionContext, daemons: readonly { url: string; fingerprint: string }[]): Promise<TestGateway> {
  const keyServer = {
    kind: 'tls' as const,
    url: daemons.map((daemon) => daemon.url),
    fingerprint: daemons.map((daemon) => daemon.fingerprint),
    timeoutMs: TIMEOUT_MS,
    ...(await clientConfig()),
  };
  return startGateway(t, { keyServer });
}

/** A password login on /api (SRP at whichever daemon the gateway picks). */
function passwordLogin(gw: TestGateway, user: 'alice' | 'bob' = 'alice') {
  return gw.call('POST', '/api/session', { body: { user, password: PASSWORDS[user] } });
}

test('a hung daemon is skipped within the timeout, left out during its back-off, and tried again after it', async (t) => {
  const hung = await startHungListener(t);
  const daemon = await spawnDaemon(t, daemonArgs('beside-hung.db'));
  const gw = await gatewayOn(t, [{ url: hung.url, fingerprint: HUNG_PIN }, daemon]);

  // Served although the daemon tried first never finishes its handshake: it had only its share of the
  // timeout. The request's whole wait at the daemons is bounded by the timeout (past it the answer is
  // 503), so a 201 is the proof; wall-clock time on a shared machine is not.
  const first = await passwordLogin(gw);
  t.is(first.status, 201, first.text);
  const accepted = hung.accepted();
  t.true(accepted >= 1, 'the hung daemon was tried');

  const second = await passwordLogin(gw, 'bob');
  t.is(second.status, 201, second.text);
  t.is(hung.accepted(), accepted, 'and then left out');
  const health = await gw.call('GET', '/api/health');
  t.is(health.status, 200);
  t.deepEqual(health.body.keyServers, [
    { url: hung.url, fingerprint: HUNG_PIN, ok: false },
    { url: daemon.url, fingerprint: daemon.fingerprint, ok: true },
  ]);

  gw.clock.advance(LONGEST_RETRY_MS);
  const third = await passwordLogin(gw);
  t.is(third.status, 201, third.text);
  t.true(hung.accepted() > accepted, 'tried again once its back-off passed');
});

/** Restarts a daemon on its store and its port. */
function revive(t: ExecutionContext, daemon: DaemonProcess, data: string): Promise<DaemonProcess> {
  return spawnDaemon(t, daemonArgs(data, daemon.port));
}

test('a dead daemon is skipped at once, and used again once it is back and its back-off has passed', async (t) => {
  let first = await spawnDaemon(t, daemonArgs('revived.db'));
  const second = await spawnDaemon(t, daemonArgs('standby.db'));
  const gw = await gatewayOn(t, [first, second]);
  await first.kill();

  const served = await passwordLogin(gw);
  t.is(served.status, 201, served.text);

  first = await revive(t, first, 'revived.db');
  const waiting = await gw.call('GET', '/api/health');
  t.deepEqual(
    waiting.body.keyServers.map((daemon: { ok: boolean }) => daemon.ok),
    [false, true],
    'not tried again before its back-off has passed',
  );

  gw.clock.advance(LONGEST_RETRY_MS);
  const back = await healthOnceChecked(
    () => gw.call('GET', '/api/health'),
    (reply) => reply.body.keyServers?.[0]?.ok === true,
  );
  t.deepEqual(
    back.body.keyServers.map((daemon: { ok: boolean }) => daemon.ok),
    [true, true],
  );
  // A session made now lives on the first daemon (each daemon has a store of its own here): it works
  // with the second gone, so the login went to the first.
  const login = await passwordLogin(gw);
  t.is(login.status, 201, login.text);
  await second.kill();
  const key = await gw.call('POST', '/api/keys', { headers: bearer(login.body.sessionId), body: {} });
  t.is(key.status, 201, key.text);
});
