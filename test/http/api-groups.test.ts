import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name);

test('GET /api/groups/{name}/members lists the members by name', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  t.deepEqual((await admin.get('/api/groups/ops/members')).body, { items: [], complete: true });
  await admin.put('/api/groups/ops/members/carol');
  await admin.put('/api/groups/ops/members/bob');
  const reply = await admin.get('/api/groups/ops/members');
  t.is(reply.status, 200);
  t.deepEqual(names(reply.body), ['bob', 'carol']);
  t.is((await admin.get('/api/groups/alice/members')).status, 404, 'alice is not a group');
  t.is((await admin.get('/api/groups/nobody/members')).status, 404);
});

test('PUT /api/groups/{name}/members/{member} answers 204; adding twice changes nothing; a group member is 400', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const reply = await admin.put('/api/groups/ops/members/alice');
  t.is(reply.status, 204);
  t.is((await admin.put('/api/groups/ops/members/alice')).status, 204);
  t.deepEqual(names((await admin.get('/api/groups/ops/members')).body), ['alice']);
  await admin.post('/api/principals', { name: 'finance', kind: 'group' });
  t.is((await admin.put('/api/groups/ops/members/finance')).status, 400);
  t.is((await admin.put('/api/groups/ops/members/nobody')).status, 404);
});

test('DELETE /api/groups/{name}/members/{member} answers 204 and the member is gone', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  await admin.put('/api/groups/ops/members/alice');
  const reply = await admin.del('/api/groups/ops/members/alice');
  t.is(reply.status, 204);
  t.deepEqual(names((await admin.get('/api/groups/ops/members')).body), []);
  t.deepEqual(names((await admin.get('/api/principals/alice/groups')).body), []);
});

test('DELETE /api/groups/{name}/members/{member} is 403 ROLE_DENIED for a user', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  await admin.put('/api/groups/ops/members/bob');
  const reply = await (await signIn(gw, 'alice')).del('/api/groups/ops/members/bob');
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ROLE_DENIED');
  t.deepEqual(names((await admin.get('/api/groups/ops/members')).body), ['bob']);
});

test("a member holds its group's ACL entries, and loses them when it leaves", async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const alice = await signIn(gw, 'alice');
  const carol = await signIn(gw, 'carol');
  const key = await createKey(alice);
  const path = `/api/keys/${pathTtag(key.ttag)}`;
  await alice.put(`${path}/acl/ops`, { rights: ['read', 'mac'] });
  t.is((await carol.get(path)).status, 403);
  await admin.put('/api/groups/ops/members/carol');
  t.is((await carol.get(path)).status, 200);
  t.deepEqual((await carol.get(`${path}/access`)).body, { rights: ['read', 'mac'] });
  await admin.del('/api/groups/ops/members/carol');
  t.is((await carol.get(path)).body.code, 'ACL_DENIED');
});

test("a member holds its group's roles: its operations are the union of both", async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const alice = await signIn(gw, 'alice');
  await admin.put('/api/principals/ops', { roles: ['auditor'] });
  t.is((await alice.get('/api/principals')).status, 403);
  await admin.put('/api/groups/ops/members/alice');
  t.is((await alice.get('/api/principals')).status, 200, "the group's auditor role counts");
  t.is((await alice.post('/api/keys', {})).status, 201, 'and so does her own user role');
  await admin.put('/api/principals/ops', { disabled: true });
  t.is((await alice.get('/api/principals')).status, 403, 'a disabled group carries no roles');
});
