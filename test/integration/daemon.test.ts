import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { asSession, createKey } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { healthOnceChecked } from '../_support/health.js';
import { clientConfig, type DaemonProcess, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

/**
 * The two-process topology: the real gateway app on a real socket, its key server a separate
 * `keygate keyserver` process reached over TLS 1.3.
 */
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);

function daemonArgs(data: string, ...extra: string[]): string[] {
  return ['--data', data, '--port', '0', '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin, ...extra];
}

/** The key-server request timeout of these gateways (how fast a failure answers is `npm run bench`'s failover row). */
const TIMEOUT_MS = 5_000;

async function tlsGateway(
  t: ExecutionContext,
  daemon: { url: string },
  trust: { ca: string } | { fingerprint: string },
  extra: Partial<GatewayConfigInput> = {},
): Promise<TestGateway> {
  return startGateway(t, {
    keyServer: { kind: 'tls', url: daemon.url, timeoutMs: TIMEOUT_MS, ...trust, ...(await clientConfig()) },
    ...extra,
  });
}

async function generate(gw: TestGateway, session: string): Promise<string> {
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': session } });
  if (reply.status !== 200) throw new Error(`generate: ${reply.status} ${reply.text}`);
  return reply.body.ttag as string;
}

async function exportKey(gw: TestGateway, session: string, ttag: string) {
  const client = clientKeyPair();
  const reply = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: client.publicKey },
  });
  return { status: reply.status, body: reply.body, key: reply.status === 200 ? client.unwrap(reply.body.wrapped) : undefined };
}

/** Restarts a daemon on its data file and port. */
async function restart(t: ExecutionContext, daemon: DaemonProcess, data: string, ...extra: string[]): Promise<DaemonProcess> {
  return spawnDaemon(
    t,
    daemonArgs(data, ...extra).map((arg, i, all) => (all[i - 1] === '--port' ? String(daemon.port) : arg)),
  );
}

test('the seven operations run end to end against the daemon, under CA trust and under a pin', async (t) => {
  const daemon = await spawnDaemon(t, daemonArgs(':memory:', '--cert', fixtures.certPath, '--key', fixtures.keyPath));
  for (const trust of [{ ca: fixtures.certPem }, { fingerprint: daemon.fingerprint }]) {
    const gw = await tlsGateway(t, daemon, trust);
    const health = await gw.call('GET', '/health');
    t.deepEqual(health.body, {
      ok: true,
      ksFingerprint: daemon.fingerprint,
      sessions: 0,
      keyServers: [{ url: daemon.url, fingerprint: daemon.fingerprint, ok: true }],
    });
    const alice = await gw.login('alice');
    const bob = await gw.login('bob');
    const ttag = await generate(gw, alice);
    t.is((await exportKey(gw, bob, ttag)).status, 403);
    const grant = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
    t.is(grant.status, 200);
    t.is(grant.body.grantee.user, 'bob');
    t.deepEqual((await exportKey(gw, bob, ttag)).key, (await exportKey(gw, alice, ttag)).key);
    t.is((await gw.call('POST', '/keys/revoke', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } })).status, 200);
    t.is((await exportKey(gw, bob, ttag)).status, 403);
    t.is((await gw.call('POST', '/logout', { headers: { 'X-Session': alice } })).status, 200);
    t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 401);
    await gw.close();
  }
  await daemon.stop();
});

test('a wrong pin is refused: login 502, /health not ok, nothing hangs', async (t) => {
  const daemon = await spawnDaemon(t, daemonArgs(':memory:'));
  const wrongPin = 'ab'.repeat(32);
  const gw = await tlsGateway(t, daemon, { fingerprint: wrongPin });
  const login = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(login.status, 502);
  const health = await gw.call('GET', '/health');
  t.is(health.body.ok, false);
  t.is(health.body.ksFingerprint, wrongPin);
  await gw.close();
  await daemon.stop();
});

test('a daemon killed mid-run answers 502 and 500, and sessions work again once it is back', async (t) => {
  const data = join(fixtures.dir, 'killed.db');
  let daemon = await spawnDaemon(t, daemonArgs(data));
  const gw = await tlsGateway(t, daemon, { fingerprint: daemon.fingerprint });
  const alice = await gw.login('alice');
  const ttag = await generate(gw, alice);
  await daemon.kill();

  const login = await gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } });
  t.is(login.status, 502);
  const keys = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
  t.is(keys.status, 500);
  t.is(keys.body.error, 'key server unavailable');
  t.is((await gw.call('GET', '/health')).body.ok, false);

  daemon = await restart(t, daemon, data);
  t.is(
    (
      await healthOnceChecked(
        () => gw.call('GET', '/health'),
        (reply) => reply.body.ok === true,
      )
    ).body.ok,
    true,
  );
  t.is((await exportKey(gw, alice, ttag)).status, 200, 'the token issued before the crash is still valid');
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 200);
  await gw.close();
  await daemon.stop();
});

test('keys and grants survive a restart of the daemon: the same key, the same access', async (t) => {
  const data = join(fixtures.dir, 'durable.db');
  let daemon = await spawnDaemon(t, daemonArgs(data));
  const gw = await tlsGateway(t, daemon, { fingerprint: daemon.fingerprint });
  const alice = await gw.login('alice');
  const ttag = await generate(gw, alice);
  await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  const before = await exportKey(gw, alice, ttag);
  t.is(await daemon.stop(), 0);

  daemon = await restart(t, daemon, data);
  const aliceAgain = await gw.login('alice');
  const bob = await gw.login('bob');
  const after = await exportKey(gw, aliceAgain, ttag);
  t.is(after.status, 200);
  t.deepEqual(after.key, before.key);
  t.deepEqual((await exportKey(gw, bob, ttag)).key, before.key, 'the grant to bob survived');
  t.is((await exportKey(gw, await gw.login('carol'), ttag)).status, 403);
  await gw.close();
  await daemon.stop();
});

test('a token past its lifetime at the daemon is 401 with reauth, and a new login works', async (t) => {
  const daemon = await spawnDaemon(t, daemonArgs(':memory:', '--token-ttl', '6'));
  const gw = await tlsGateway(t, daemon, { fingerprint: daemon.fingerprint });
  const alice = await gw.login('alice');
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 200);
  await sleep(6_200);
  const expired = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
  t.is(expired.status, 401);
  t.is(expired.body.reauth, true);
  t.is(expired.body.error, 'session expired');
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': await gw.login('alice') } })).status, 200);
  await gw.close();
  await daemon.stop();
});

test('the /api families run against the daemon, and groups, roles and memberships survive its restart', async (t) => {
  const data = join(fixtures.dir, 'directory.db');
  let daemon = await spawnDaemon(t, daemonArgs(data));
  const gw = await tlsGateway(t, daemon, { fingerprint: daemon.fingerprint });
  const admin = asSession(gw, await gw.login('admin'));
  const alice = asSession(gw, await gw.login('alice'));
  const { ttag } = await createKey(alice, { keyLen: 32, label: 'over tls' });
  const sealed = await alice.post('/api/crypto/encrypt', { ttag, plaintext: Buffer.from('two processes').toString('base64') });
  t.is(sealed.status, 200);
  const { alg: _alg, sealed: _sealed, ...fields } = sealed.body;
  t.is(Buffer.from((await alice.post('/api/crypto/decrypt', { ttag, ...fields })).body.plaintext, 'base64').toString(), 'two processes');
  t.like(await alice.get('/api/audit'), { status: 403, body: { code: 'ROLE_DENIED' } });
  t.is((await admin.post('/api/principals', { name: 'readers', kind: 'group', roles: ['auditor'] })).status, 201);
  t.is((await admin.put('/api/groups/readers/members/alice')).status, 204);
  t.like(await admin.put('/api/roles/labeller', { operations: ['keys.read', 'keys.create'] }), { status: 200 });
  t.is((await alice.get('/api/audit')).status, 200, "the group's auditor role, as the daemon knows it");
  t.is(await daemon.stop(), 0);

  daemon = await restart(t, daemon, data);
  const adminAgain = asSession(gw, await gw.login('admin'));
  const aliceAgain = asSession(gw, await gw.login('alice'));
  t.is((await aliceAgain.get('/api/audit')).status, 200, 'the membership survived');
  t.deepEqual(
    (await adminAgain.get('/api/groups/readers/members')).body.items.map((p: { name: string }) => p.name),
    ['alice'],
  );
  t.deepEqual((await adminAgain.get('/api/roles/labeller')).body, { name: 'labeller', operations: ['keys.create', 'keys.read'] });
  t.is((await adminAgain.del('/api/principals/readers')).status, 204);
  t.like(await aliceAgain.get('/api/audit'), { status: 403, body: { code: 'ROLE_DENIED' } }, 'the group went, and its role with it');
  t.like(await aliceAgain.get(`/api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}`), {
    status: 200,
    body: { label: 'over tls' },
  });
  await gw.close();
  await daemon.stop();
});
