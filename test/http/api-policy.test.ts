import test from 'ava';
import { signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { startGateway } from '../_support/gateway.js';

test('GET /api/policy/provisioning answers the four parameters with their defaults', async (t) => {
  const gw = await startGateway();
  const reply = await (await signIn(gw, 'admin')).get('/api/policy/provisioning');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { autoProvision: false, nameAttribute: 'CN', defaultRoles: ['user'], defaultGroups: [] });
  await gw.close();
});

test('GET /api/policy/provisioning is 403 ROLE_DENIED for a user', async (t) => {
  const gw = await startGateway();
  const reply = await (await signIn(gw, 'alice')).get('/api/policy/provisioning');
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ROLE_DENIED');
  await gw.close();
});

test('PUT /api/policy/provisioning/{parameter} sets one parameter and answers all four', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const reply = await admin.put('/api/policy/provisioning/nameAttribute', { value: 'emailAddress' });
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { autoProvision: false, nameAttribute: 'emailAddress', defaultRoles: ['user'], defaultGroups: [] });
  t.is((await admin.get('/api/policy/provisioning')).body.nameAttribute, 'emailAddress');
  await gw.close();
});

test('PUT /api/policy/provisioning/{parameter}: unknown 404, wrong type 400, a user 403', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  t.is((await admin.put('/api/policy/provisioning/autoDelete', { value: true })).status, 404);
  for (const [name, value] of [
    ['autoProvision', 'yes'],
    ['nameAttribute', 'OU'],
    ['defaultRoles', 'user'],
  ] as const) {
    const reply = await admin.put(`/api/policy/provisioning/${name}`, { value });
    t.is(reply.status, 400, name);
  }
  const denied = await (await signIn(gw, 'alice')).put('/api/policy/provisioning/autoProvision', { value: true });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
  await gw.close();
});

test('a certificate login provisioned by policy gets the default roles and joins the default groups', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const authority = await createAuthority('keygate test CA');
  await admin.post('/api/trust/authorities', { pem: authority.pem });
  await admin.put('/api/policy/provisioning/autoProvision', { value: true });
  await admin.put('/api/policy/provisioning/defaultRoles', { value: ['auditor'] });
  await admin.put('/api/policy/provisioning/defaultGroups', { value: ['ops'] });
  const leaf = await createLeaf(authority, 'newcomer');
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  t.is(login.status, 201);
  t.like((await admin.get('/api/principals/newcomer')).body, { roles: ['auditor'] });
  t.deepEqual(
    (await admin.get('/api/principals/newcomer/groups')).body.items.map((g: { name: string }) => g.name),
    ['ops'],
  );
  await gw.close();
});
