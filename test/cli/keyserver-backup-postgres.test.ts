import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { type ApiSession, asSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { clientConfig, type DaemonProcess, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';

/** The drill from SQLite into PostgreSQL: the way a deployment moves its key server onto PostgreSQL. */
const postgres = startTestPostgres();
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);
test.after.always(() => postgres.stop());

async function gatewayFor(t: ExecutionContext, daemon: DaemonProcess): Promise<TestGateway> {
  return startGateway(t, {
    keyServer: { kind: 'tls', url: daemon.url, fingerprint: daemon.fingerprint, timeoutMs: 5_000, ...(await clientConfig()) },
  });
}

async function exported(session: ApiSession, ttag: string): Promise<string> {
  const client = clientKeyPair();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return client.unwrap(reply.body.wrapped).toString('base64');
}

async function login(gw: TestGateway, user: string, password: string): Promise<ApiSession> {
  const reply = await gw.call('POST', '/login', { body: { user, password } });
  if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
  return asSession(gw, reply.body.sessionId);
}

if (postgres.url === undefined) skipAll('keyserver backup into PostgreSQL', postgres.reason!);
else {
  const url = postgres.url;
  test('a backup of a SQLite store restored into PostgreSQL serves the same keys, ACLs and passwords', async (t) => {
    const dir = join(fixtures.dir, 'to-postgres');
    mkdirSync(dir, { recursive: true });
    const keyFile = join(dir, 'master.key');
    writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const data = join(dir, 'ks.db');
    const backup = join(dir, 'ks.backup');
    const common = ['--port', '0', '--master-key-file', keyFile, '--cert', fixtures.certPath, '--key', fixtures.keyPath];

    const onSqlite = await spawnDaemon(t, ['--data', data, '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin, ...common]);
    const before = await gatewayFor(t, onSqlite);
    const admin = await signIn(before, 'admin');
    t.is((await admin.post('/api/principals', { name: 'dora', kind: 'user', password: 'dora-password-5' })).status, 201);
    const alice = await signIn(before, 'alice');
    const { ttag } = await createKey(alice);
    t.is((await alice.put(`/api/keys/${pathTtag(ttag)}/acl/dora`, { rights: ['read', 'export'] })).status, 200);
    const material = await exported(alice, ttag);
    const acl = (await alice.get(`/api/keys/${pathTtag(ttag)}/acl`)).body;
    t.is(acl.items.length, 1);

    const taken = await runKeyserverCli(['backup', '--out', backup, '--data', data, '--master-key-file', keyFile]);
    t.is(taken.status, 0, taken.stderr);
    await before.close();
    t.is(await onSqlite.stop(), 0);

    const restored = await runKeyserverCli(['restore', '--in', backup, '--postgres', url, '--master-key-file', keyFile, '--json']);
    t.is(restored.status, 0, restored.stderr);
    t.like(JSON.parse(restored.stdout), { action: 'restore', counts: { keys: 1, key_acl: 1 } });
    t.false(restored.stdout.includes(new URL(url).password || '\0'), 'the URL password is never printed');
    const again = await runKeyserverCli(['restore', '--in', backup, '--postgres', url, '--master-key-file', keyFile]);
    t.is(again.status, 1);
    t.regex(again.stderr, /^keygate: restore: the PostgreSQL store is not empty/);

    const onPostgres = await spawnDaemon(t, ['--postgres', url, '--data', join(dir, 'pg-identity', 'ks.db'), ...common]);
    const after = await gatewayFor(t, onPostgres);
    const aliceAfter = await signIn(after, 'alice');
    t.is(await exported(aliceAfter, ttag), material);
    t.deepEqual((await aliceAfter.get(`/api/keys/${pathTtag(ttag)}/acl`)).body, acl);
    t.is(await exported(await login(after, 'dora', 'dora-password-5'), ttag), material);
  });
}
