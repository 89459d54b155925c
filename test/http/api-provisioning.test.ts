import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { createAuthority, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

// Issue 12 §2: auto-provisioning only ever creates a new principal, marks it with the issuing
// authority, and never hands out admin.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });
const idOf = (certificate: TestCertificate) => createHash('sha256').update(Buffer.from(certificate.cert.rawData)).digest('hex');

async function provisioningWorld(t: ExecutionContext) {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const authority = await createAuthority('partner CA');
  const second = await createAuthority('second partner CA');
  for (const ca of [authority, second]) {
    const add = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: ca.pem } });
    if (add.status !== 201) throw new Error(`trust: ${add.status} ${add.text}`);
  }
  const policy = await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: true } });
  if (policy.status !== 200) throw new Error(`policy: ${policy.status} ${policy.text}`);
  return { gw, admin, authority, second };
}

async function certificateLogin(gw: TestGateway, certificate: TestCertificate) {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: certificate.pem } });
  if (challenge.status !== 201) return challenge;
  return gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(certificate, challenge.body.challenge) },
  });
}

test('attack: a trusted unenrolled certificate with CN=admin signs in as the existing admin -> 409 PRINCIPAL_EXISTS', async (t) => {
  const { gw, admin, authority } = await provisioningWorld(t);
  for (const name of ['admin', 'alice']) {
    const reply = await certificateLogin(gw, await createLeaf(authority, name));
    t.is(reply.status, 409);
    t.like(reply.body, { code: 'CONFLICT', reason: 'PRINCIPAL_EXISTS' });
  }
  const certificates = await gw.call('GET', '/api/certificates?principal=admin', { headers: bearer(admin) });
  t.deepEqual(certificates.body.items, [], 'nothing was enrolled to admin');
});

test('attack: the refused certificate does not stay enrolled once the policy is off', async (t) => {
  const { gw, admin, authority } = await provisioningWorld(t);
  const leaf = await createLeaf(authority, 'admin');
  t.is((await certificateLogin(gw, leaf)).status, 409);
  await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: false } });
  const reply = await certificateLogin(gw, leaf);
  t.true(reply.status === 401 || reply.status === 409, `refused, got ${reply.status}`);
  t.not(reply.body.user, 'admin');
});

test('a provisioned principal shows provisionedBy; the same issuer may sign it in again, another issuer may not', async (t) => {
  const { gw, admin, authority, second } = await provisioningWorld(t);
  const first = await certificateLogin(gw, await createLeaf(authority, 'newcomer'));
  t.is(first.status, 201);
  const view = await gw.call('GET', '/api/principals/newcomer', { headers: bearer(admin) });
  t.is(view.body.provisionedBy, idOf(authority));
  const again = await certificateLogin(gw, await createLeaf(authority, 'newcomer'));
  t.is(again.status, 201, 'a renewed certificate of the same issuer');
  t.is(again.body.user, 'newcomer');
  const stranger = await certificateLogin(gw, await createLeaf(second, 'newcomer'));
  t.is(stranger.status, 409);
  t.like(stranger.body, { code: 'CONFLICT', reason: 'PRINCIPAL_EXISTS' });
});

test('attack: a provisioning policy handing out admin is refused when written -> 400', async (t) => {
  const { gw, admin } = await provisioningWorld(t);
  const reply = await gw.call('PUT', '/api/policy/provisioning/defaultRoles', {
    headers: bearer(admin),
    body: { value: ['user', 'admin'] },
  });
  t.is(reply.status, 400);
  t.is(reply.body.code, 'BAD_REQUEST');
  const policy = await gw.call('GET', '/api/policy/provisioning', { headers: bearer(admin) });
  t.deepEqual(policy.body.defaultRoles, ['user']);
});

test('attack: a default group holding admin hands admin to every provisioned principal -> refused when written (400), skipped when it gains admin later', async (t) => {
  const { gw, admin, authority } = await provisioningWorld(t);
  await gw.call('PUT', '/api/principals/ops', { headers: bearer(admin), body: { roles: ['admin'] } });
  const written = await gw.call('PUT', '/api/policy/provisioning/defaultGroups', { headers: bearer(admin), body: { value: ['ops'] } });
  t.is(written.status, 400);
  t.is(written.body.code, 'BAD_REQUEST');
  t.deepEqual((await gw.call('GET', '/api/policy/provisioning', { headers: bearer(admin) })).body.defaultGroups, []);
  await gw.call('PUT', '/api/principals/ops', { headers: bearer(admin), body: { roles: [] } });
  t.is((await gw.call('PUT', '/api/policy/provisioning/defaultGroups', { headers: bearer(admin), body: { value: ['ops'] } })).status, 200);
  await gw.call('PUT', '/api/principals/ops', { headers: bearer(admin), body: { roles: ['admin'] } });
  const reply = await certificateLogin(gw, await createLeaf(authority, 'newcomer'));
  t.is(reply.status, 201);
  const groups = await gw.call('GET', '/api/principals/newcomer/groups', { headers: bearer(admin) });
  t.deepEqual(groups.body.items, [], 'not placed in a group that holds admin');
  const attempt = await gw.call('PUT', '/api/principals/alice', { headers: bearer(reply.body.sessionId), body: { roles: ['admin'] } });
  t.is(attempt.status, 403);
});
