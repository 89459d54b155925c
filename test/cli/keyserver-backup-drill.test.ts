import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { type ApiSession, asSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { runKeyserverCli } from '../_support/keyserver-cli.js';
import { clientConfig, type DaemonProcess, daemonFixtures, killAllDaemons, spawnDaemon } from '../_support/keyserver-daemon.js';

/**
 * The backup drill, through the entrances an operator takes: a real `keygate keyserver` daemon on a
 * SQLite file, a gateway in front of it, and the real `keygate keyserver backup` and `restore`.
 */
const fixtures = await daemonFixtures(SEED);
test.after.always(killAllDaemons);

const NEW_USERS = { dora: 'dora-password-5', erin: 'erin-password-6' } as const;

function storeFiles(dir: string) {
  const keyFile = join(dir, 'secrets', 'master.key');
  mkdirSync(join(dir, 'secrets'), { recursive: true });
  writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  return { data: join(dir, 'store', 'ks.db'), keyFile, backup: join(dir, 'ks.backup') };
}

function daemonArgs(data: string, keyFile: string, ...extra: string[]): string[] {
  return ['--data', data, '--port', '0', '--master-key-file', keyFile, '--cert', fixtures.certPath, '--key', fixtures.keyPath, ...extra];
}

async function gatewayFor(t: ExecutionContext, daemon: DaemonProcess): Promise<TestGateway> {
  return startGateway(t, {
    keyServer: { kind: 'tls', url: daemon.url, fingerprint: daemon.fingerprint, timeoutMs: 5_000, ...(await clientConfig()) },
  });
}

async function ok(reply: Promise<{ status: number; text: string }>, status: number, what: string): Promise<void> {
  const answered = await reply;
  if (answered.status !== status) throw new Error(`${what}: ${answered.status} ${answered.text}`);
}

async function passwordLogin(gw: TestGateway, user: string, password: string): Promise<ApiSession> {
  const reply = await gw.call('POST', '/login', { body: { user, password } });
  if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
  return asSession(gw, reply.body.sessionId);
}

async function certificateLogin(gw: TestGateway, certificate: TestCertificate): Promise<number> {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: certificate.pem } });
  if (challenge.status !== 201) return challenge.status;
  const signature = signChallenge(certificate, challenge.body.challenge);
  return (await gw.call('POST', '/api/session/certificate', { body: { challengeId: challenge.body.challengeId, signature } })).status;
}

async function exported(session: ApiSession, ttag: string): Promise<Buffer> {
  const client = clientKeyPair();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  return client.unwrap(reply.body.wrapped);
}

/** Principals, a group with members, a role, a parameter, a trusted CA with an enrolled leaf, keys and grants. */
async function makeState(gw: TestGateway) {
  const admin = await signIn(gw, 'admin');
  for (const [name, password] of Object.entries(NEW_USERS))
    await ok(admin.post('/api/principals', { name, kind: 'user', password }), 201, name);
  await ok(admin.post('/api/principals', { name: 'team', kind: 'group' }), 201, 'team');
  await ok(admin.put('/api/groups/team/members/dora'), 204, 'member dora');
  await ok(admin.put('/api/groups/team/members/erin'), 204, 'member erin');
  await ok(admin.put('/api/roles/reader', { operations: ['keys.read', 'acl.read'] }), 200, 'role');
  await ok(admin.put('/api/principals/erin', { roles: ['user', 'reader'] }), 200, 'erin roles');
  await ok(admin.put('/api/server/parameters/maxPendingLogins', { value: 77 }), 200, 'parameter');
  const authority = await createAuthority('drill CA');
  await ok(admin.post('/api/trust/authorities', { pem: authority.pem }), 201, 'authority');
  const leaf = await createLeaf(authority, 'carol-cert');
  await ok(admin.post('/api/trust/enrollments', { principal: 'carol', pem: leaf.pem }), 201, 'enrollment');
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const keys = [(await createKey(alice)).ttag, (await createKey(alice, { label: 'payroll' })).ttag, (await createKey(bob)).ttag];
  await ok(alice.put(`/api/keys/${pathTtag(keys[0]!)}/acl/dora`, { rights: ['read', 'export'] }), 200, 'grant dora');
  await ok(alice.put(`/api/keys/${pathTtag(keys[1]!)}/acl/team`, { rights: ['read', 'export'] }), 200, 'grant team');
  await ok(bob.put(`/api/keys/${pathTtag(keys[2]!)}/acl/alice`, { rights: ['read'] }), 200, 'grant alice');
  return { keys, leaf, owners: [alice, alice, bob] };
}

/** What must survive: each key's bytes and ACL, the group, the role, the parameter, the authorities. */
async function observe(gw: TestGateway, keys: readonly string[]) {
  const admin = await signIn(gw, 'admin');
  const owners = [await signIn(gw, 'alice'), await signIn(gw, 'alice'), await signIn(gw, 'bob')];
  const material: string[] = [];
  const acls: unknown[] = [];
  for (const [i, ttag] of keys.entries()) {
    material.push((await exported(owners[i]!, ttag)).toString('base64'));
    acls.push((await owners[i]!.get(`/api/keys/${pathTtag(ttag)}/acl`)).body);
  }
  return {
    material,
    acls,
    members: (await admin.get('/api/groups/team/members')).body,
    role: (await admin.get('/api/roles/reader')).body,
    erin: (await admin.get('/api/principals/erin')).body,
    parameter: (await admin.get('/api/server/parameters')).body,
    authorities: (await admin.get('/api/trust/authorities')).body,
  };
}

test('the drill: back up a serving store, destroy it, restore it; keys, ACLs, logins and trust come back as they were', async (t) => {
  const { data, keyFile, backup } = storeFiles(join(fixtures.dir, 'drill'));
  const first = await spawnDaemon(t, daemonArgs(data, keyFile, '--seed', fixtures.seedPath, '--admin-password', PASSWORDS.admin));
  const before = await gatewayFor(t, first);
  const { keys, leaf } = await makeState(before);
  const seen = await observe(before, keys);
  // What is compared after the restore is what was made, not a refusal read twice.
  t.is(new Set(seen.material).size, 3);
  t.deepEqual(
    seen.members.items.map((member: { name: string }) => member.name),
    ['dora', 'erin'],
  );
  t.deepEqual(seen.role.operations, ['keys.read', 'acl.read']);
  t.is(seen.authorities.items.length, 1);
  t.true(JSON.stringify(seen.parameter).includes('77'));
  t.deepEqual(
    seen.acls.map((acl) => (acl as { items: unknown[] }).items.length),
    [1, 1, 1],
  );
  t.is(await certificateLogin(before, leaf), 201);

  // The backup runs while the daemon serves a stream of writes (a key, then a grant on it): the rows it
  // reads are of one state, so each ACL entry it holds finds its key when it is restored.
  const alice = await signIn(before, 'alice');
  let serving = true;
  const load = (async () => {
    let written = 0;
    for (; serving; written++) {
      const { ttag } = await createKey(alice);
      await ok(alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['read'] }), 200, 'grant under load');
    }
    return written;
  })();
  const taken = await runKeyserverCli(['backup', '--out', backup, '--data', data, '--master-key-file', keyFile, '--json']);
  serving = false;
  t.true((await load) > 0, 'writes were served while the backup ran');
  t.is(taken.status, 0, taken.stderr);
  const summary = JSON.parse(taken.stdout);
  t.like(summary, { action: 'backup', file: backup, store: data, counts: { memberships: 2, roles: 1, certificates: 2 } });
  t.true(summary.counts.keys > 3);
  t.is(summary.masterKeyIds.length, 1);
  t.is(statSync(backup).mode & 0o777, 0o600);

  await before.close();
  t.is(await first.stop(), 0);
  for (const file of [data, `${data}-wal`, `${data}-shm`]) rmSync(file, { force: true });

  const restored = await runKeyserverCli(['restore', '--in', backup, '--data', data, '--master-key-file', keyFile]);
  t.is(restored.status, 0, restored.stderr);
  const rows = Object.entries(summary.counts).map(([table, count]) => `${table}:${count}`);
  t.is(
    restored.stdout,
    `keygate keyserver: restored file=${backup} store=${data} created=${summary.createdAt} master-keys=${summary.masterKeyIds[0]} rows=${rows.join(',')}\n`,
  );

  // Started with neither seed nor admin password: every principal below comes from the backup.
  const second = await spawnDaemon(t, daemonArgs(data, keyFile));
  t.notRegex(second.output(), /generated password/);
  const after = await gatewayFor(t, second);
  t.deepEqual(await observe(after, keys), seen);
  t.deepEqual((await exported(await passwordLogin(after, 'dora', NEW_USERS.dora), keys[0]!)).toString('base64'), seen.material[0]);
  t.deepEqual((await exported(await passwordLogin(after, 'erin', NEW_USERS.erin), keys[1]!)).toString('base64'), seen.material[1]);
  t.is(await certificateLogin(after, leaf), 201, 'the CA is still trusted, the leaf still enrolled');
  t.false(existsSync(join(fixtures.dir, 'drill', 'store', 'ks.master.key')), 'no key was generated beside the data');
});
