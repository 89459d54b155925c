import test from 'ava';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner, type ProofSigner } from '../_support/proof-builder.js';

// Issue 12 §1: a service acts only for the principals an administrator listed in its `delegates`,
// never for an administrator, never for the never-delegable operations, and only while it may.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

interface BoundService {
  readonly admin: string;
  readonly signer: ProofSigner;
  readonly session: string;
}

/** svc signs in with an enrolled certificate and a registered sender key: a bound service session. */
async function boundService(gw: TestGateway, delegates?: string[]): Promise<BoundService> {
  const admin = await gw.login('admin');
  const authority = await createAuthority('svc CA');
  const leaf = await createLeaf(authority, 'svc');
  const signer = await makeSigner('ES256');
  await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'svc', pem: leaf.pem } });
  await gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk: signer.publicJwk } });
  if (delegates !== undefined) {
    const put = await gw.call('PUT', '/api/principals/svc', { headers: bearer(admin), body: { delegates } });
    if (put.status !== 200) throw new Error(`delegates: ${put.status} ${put.text}`);
  }
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  if (login.status !== 201) throw new Error(`svc login: ${login.status} ${login.text}`);
  return { admin, signer, session: login.body.sessionId as string };
}

async function delegate(gw: TestGateway, svc: BoundService, principal: string) {
  return gw.bound(svc.signer, 'POST', '/api/session/delegated', { bearer: svc.session }, { principal });
}

test('attack: a service delegates to admin and makes itself an administrator -> 403 DELEGATION_DENIED', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['admin']);
  const reply = await delegate(gw, svc, 'admin');
  t.is(reply.status, 403);
  t.is(reply.body.code, 'DELEGATION_DENIED');
  const roles = await gw.call('GET', '/api/principals/svc', { headers: bearer(svc.admin) });
  t.deepEqual(roles.body.roles, ['service']);
});

test('attack: a principal holding admin through a group is never delegable', async (t) => {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  await gw.call('PUT', '/api/principals/ops', { headers: bearer(admin), body: { roles: ['admin'] } });
  await gw.call('PUT', '/api/groups/ops/members/bob', { headers: bearer(admin) });
  const svc = await boundService(gw, ['bob', 'ops']);
  const reply = await delegate(gw, svc, 'bob');
  t.is(reply.status, 403);
  t.is(reply.body.code, 'DELEGATION_DENIED');
});

test('attack: a service delegates to a principal outside its delegates list -> 403 DELEGATION_DENIED', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw);
  const none = await delegate(gw, svc, 'alice');
  t.is(none.status, 403, 'the list is empty by default');
  t.is(none.body.code, 'DELEGATION_DENIED');
  const listed = await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { delegates: ['alice', 'ops'] } });
  t.is(listed.status, 200);
  t.deepEqual(listed.body.delegates, ['alice', 'ops']);
  t.is((await delegate(gw, svc, 'alice')).status, 201);
  t.is((await delegate(gw, svc, 'bob')).body.code, 'DELEGATION_DENIED');
  await gw.call('PUT', '/api/groups/ops/members/bob', { headers: bearer(svc.admin) });
  t.is((await delegate(gw, svc, 'bob')).status, 201, 'a listed group admits its members');
});

test('only admin sets delegates, only on a service; the view shows an empty list by default', async (t) => {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const view = await gw.call('GET', '/api/principals/svc', { headers: bearer(admin) });
  t.deepEqual(view.body.delegates, []);
  const alice = await gw.login('alice');
  const self = await gw.call('PUT', '/api/principals/svc', { headers: bearer(alice), body: { delegates: ['alice'] } });
  t.is(self.status, 403);
  t.is(self.body.code, 'ROLE_DENIED');
  const onUser = await gw.call('PUT', '/api/principals/alice', { headers: bearer(admin), body: { delegates: ['bob'] } });
  t.is(onUser.status, 400);
  t.is(onUser.body.code, 'BAD_REQUEST');
});

test('attack: a delegated session uses the never-delegable operations -> 403 ROLE_DENIED', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice']);
  // alice may manage principals through a role of her own: her delegated session still may not.
  await gw.call('PUT', '/api/roles/manager', {
    headers: bearer(svc.admin),
    body: { operations: ['principals.update', 'principals.password'] },
  });
  await gw.call('PUT', '/api/principals/alice', { headers: bearer(svc.admin), body: { roles: ['user', 'manager'] } });
  const minted = await delegate(gw, svc, 'alice');
  t.is(minted.status, 201);
  const as = (method: string, path: string, body?: unknown) => gw.bound(svc.signer, method, path, { bearer: minted.body.sessionId }, body);
  const attempts = [
    await as('PUT', '/api/principals/alice/password', { password: 'taken-over-1' }),
    await as('PUT', '/api/principals/bob/password', { password: 'taken-over-1' }),
    await as('PUT', '/api/principals/bob', { displayName: 'owned' }),
    await as('PUT', '/api/principals/alice/sender-key', { jwk: (await makeSigner('ES256')).publicJwk }),
    await as('POST', '/api/session/scoped', { objects: ['AAAAAAAAAAAAAAAAAAAAAA'], senderKey: (await makeSigner('ES256')).publicJwk }),
  ];
  for (const reply of attempts) {
    t.is(reply.status, 403);
    t.is(reply.body.code, 'ROLE_DENIED');
  }
  t.is((await as('GET', '/api/session')).status, 200, 'what alice may do otherwise still works');
  t.is((await as('POST', '/api/keys', {})).status, 201);
});

test('attack: a delegated session outlives its disabled service -> 401 SESSION_EXPIRED with reauth', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice']);
  const minted = await delegate(gw, svc, 'alice');
  t.is(minted.status, 201);
  const use = () => gw.bound(svc.signer, 'POST', '/api/keys', { bearer: minted.body.sessionId }, {});
  t.is((await use()).status, 201);
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { disabled: true } });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { disabled: false } });
  const dead = await use();
  t.is(dead.status, 401);
  t.like(dead.body, { code: 'SESSION_EXPIRED', reauth: true });
});

test('a delegated session dies when its target leaves the list, or the service loses session.delegate or is deleted', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice', 'bob', 'carol']);
  const [forAlice, forBob, forCarol] = [await delegate(gw, svc, 'alice'), await delegate(gw, svc, 'bob'), await delegate(gw, svc, 'carol')];
  const use = (minted: typeof forAlice) =>
    gw.bound(svc.signer, 'GET', '/api/keys/AAAAAAAAAAAAAAAAAAAAAA', { bearer: minted.body.sessionId });
  t.is((await use(forAlice)).status, 404);
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { delegates: ['bob', 'carol'] } });
  t.like((await use(forAlice)).body, { code: 'SESSION_EXPIRED', reauth: true });
  t.is((await use(forBob)).status, 404, 'a target still listed is unaffected');
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { roles: ['user'] } });
  t.like((await use(forBob)).body, { code: 'SESSION_EXPIRED', reauth: true });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { roles: ['service'] } });
  await gw.call('DELETE', '/api/principals/svc', { headers: bearer(svc.admin) });
  t.like((await use(forCarol)).body, { code: 'SESSION_EXPIRED', reauth: true });
});

test('attack: delist the target, re-list it before the next call -> the old delegated session stays dead (401 SESSION_EXPIRED reauth)', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice']);
  const minted = await delegate(gw, svc, 'alice');
  t.is(minted.status, 201);
  const use = () => gw.bound(svc.signer, 'POST', '/api/keys', { bearer: minted.body.sessionId }, {});
  t.is((await use()).status, 201);
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { delegates: [] } });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { delegates: ['alice'] } });
  const dead = await use();
  t.is(dead.status, 401);
  t.like(dead.body, { code: 'SESSION_EXPIRED', reauth: true });
  t.is((await delegate(gw, svc, 'alice')).status, 201, 'a new delegation under the restored list is allowed');
});

test('attack: a broken delegation restored before the next call (group left and rejoined, session.delegate lost and regained) stays dead', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['ops']);
  await gw.call('PUT', '/api/groups/ops/members/bob', { headers: bearer(svc.admin) });
  await gw.call('PUT', '/api/groups/ops/members/carol', { headers: bearer(svc.admin) });
  const [forBob, forCarol] = [await delegate(gw, svc, 'bob'), await delegate(gw, svc, 'carol')];
  t.is(forBob.status, 201);
  t.is(forCarol.status, 201);
  const use = (minted: typeof forBob) => gw.bound(svc.signer, 'POST', '/api/keys', { bearer: minted.body.sessionId }, {});
  await gw.call('DELETE', '/api/groups/ops/members/bob', { headers: bearer(svc.admin) });
  await gw.call('PUT', '/api/groups/ops/members/bob', { headers: bearer(svc.admin) });
  t.like((await use(forBob)).body, { code: 'SESSION_EXPIRED', reauth: true });
  t.is((await use(forCarol)).status, 201, 'a delegation that never broke lives on');
  await gw.call('PUT', '/api/roles/service', { headers: bearer(svc.admin), body: { operations: ['keys.create'] } });
  const restored = await gw.call('PUT', '/api/roles/service', {
    headers: bearer(svc.admin),
    body: { operations: ['keys.create', 'session.delegate'] },
  });
  t.is(restored.status, 200);
  t.like((await use(forCarol)).body, { code: 'SESSION_EXPIRED', reauth: true });
});

test('attack: a refused {certificate} delegation auto-provisions its principal anyway -> 403 DELEGATION_DENIED and nothing is created', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice']);
  const partner = await createAuthority('partner CA');
  t.is((await gw.call('POST', '/api/trust/authorities', { headers: bearer(svc.admin), body: { pem: partner.pem } })).status, 201);
  t.is((await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(svc.admin), body: { value: true } })).status, 200);
  const names = async () =>
    (await gw.call('GET', '/api/principals?limit=500', { headers: bearer(svc.admin) })).body.items.map((p: { name: string }) => p.name);
  const before = await names();
  const newcomer = await createLeaf(partner, 'newcomer');
  const reply = await gw.bound(svc.signer, 'POST', '/api/session/delegated', { bearer: svc.session }, { certificate: newcomer.pem });
  t.is(reply.status, 403);
  t.is(reply.body.code, 'DELEGATION_DENIED');
  t.deepEqual(await names(), before, 'the principal list is unchanged');
  t.is((await gw.call('GET', '/api/principals/newcomer', { headers: bearer(svc.admin) })).status, 404);
  const certificates = await gw.call('GET', '/api/certificates?subject=newcomer', { headers: bearer(svc.admin) });
  t.deepEqual(certificates.body.items, [], 'nothing was enrolled');
  await gw.call('PUT', '/api/policy/provisioning/defaultGroups', { headers: bearer(svc.admin), body: { value: ['provisioned'] } });
  await gw.call('POST', '/api/principals', { headers: bearer(svc.admin), body: { name: 'provisioned', kind: 'group' } });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(svc.admin), body: { delegates: ['alice', 'provisioned'] } });
  const allowed = await gw.bound(svc.signer, 'POST', '/api/session/delegated', { bearer: svc.session }, { certificate: newcomer.pem });
  t.is(allowed.status, 201, 'listed through the default group it will join, it is provisioned and delegated');
  t.is(allowed.body.user, 'newcomer');
});

test('audit records of a delegated session name the target as principal', async (t) => {
  const gw = await startGateway(t);
  const svc = await boundService(gw, ['alice']);
  const minted = await delegate(gw, svc, 'alice');
  t.like(minted.body, { user: 'alice', actingFor: 'svc' });
  await gw.bound(svc.signer, 'POST', '/api/keys', { bearer: minted.body.sessionId }, {});
  const audit = await gw.call('GET', '/api/audit?operation=keys.create', { headers: bearer(svc.admin) });
  t.is(audit.body.items[0]?.principal, 'alice');
});
