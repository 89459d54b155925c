import test from 'ava';
import { asSession, signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

const SEEDED = ['admin', 'alice', 'audra', 'bob', 'carol', 'ops', 'svc'];

test('GET /api/principals lists every principal by name, complete', async (t) => {
  const gw = await startGateway(t);
  const reply = await (await signIn(gw, 'admin')).get('/api/principals');
  t.is(reply.status, 200);
  t.is(reply.body.complete, true);
  t.false('next' in reply.body);
  t.deepEqual(
    reply.body.items.map((p: { name: string }) => p.name),
    SEEDED,
  );
  const alice = reply.body.items.find((p: { name: string }) => p.name === 'alice');
  t.deepEqual(Object.keys(alice).sort(), ['createdAt', 'disabled', 'kind', 'name', 'principalId', 'roles', 'systemId']);
  t.like(alice, { kind: 'user', disabled: false, roles: ['user'] });
});

test('GET /api/principals pages with an opaque cursor and filters by kind', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const seen: string[] = [];
  let path = '/api/principals?limit=2';
  for (;;) {
    const page = await admin.get(path);
    t.is(page.status, 200);
    t.true(page.body.items.length <= 2);
    seen.push(...page.body.items.map((p: { name: string }) => p.name));
    if (page.body.next === undefined) break;
    path = `/api/principals?limit=2&cursor=${encodeURIComponent(page.body.next)}`;
  }
  t.deepEqual(seen, SEEDED);
  const groups = await admin.get('/api/principals?kind=group');
  t.deepEqual(
    groups.body.items.map((p: { name: string }) => p.name),
    ['ops'],
  );
  for (const query of ['limit=0', 'limit=501', 'kind=robot', 'cursor=garbage', 'sort=name']) {
    const bad = await admin.get(`/api/principals?${query}`);
    t.is(bad.status, 400, query);
    t.is(bad.body.code, 'BAD_REQUEST');
  }
});

test('POST /api/principals creates a user who can then sign in with the password', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const reply = await admin.post('/api/principals', {
    name: 'dora',
    kind: 'user',
    displayName: 'Dora',
    password: 'dora-password-5',
    roles: ['user', 'auditor'],
  });
  t.is(reply.status, 201);
  t.like(reply.body, { name: 'dora', kind: 'user', displayName: 'Dora', disabled: false, roles: ['user', 'auditor'] });
  t.regex(reply.body.principalId, /^[0-9a-f]{16}$/);
  t.false(reply.text.includes('dora-password-5'));
  const login = await gw.call('POST', '/api/session', { body: { user: 'dora', password: 'dora-password-5' } });
  t.is(login.status, 201);
  const group = await admin.post('/api/principals', { name: 'finance', kind: 'group' });
  t.like(group.body, { kind: 'group', roles: [] });
});

test('POST /api/principals refuses a user (403), a taken name (409), an unknown role or a group password (400)', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const denied = await (await signIn(gw, 'alice')).post('/api/principals', { name: 'eve', kind: 'user' });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
  t.is((await admin.post('/api/principals', { name: 'bob', kind: 'user' })).body.code, 'CONFLICT');
  for (const body of [
    { name: 'eve', kind: 'user', roles: ['wizard'] },
    { name: 'eve', kind: 'group', password: 'group-password' },
    { name: 'bad name!', kind: 'user' },
    { name: 'eve', kind: 'robot' },
    { name: 'eve', kind: 'user', password: 'short' },
  ]) {
    const reply = await admin.post('/api/principals', body);
    t.is(reply.status, 400, JSON.stringify(body));
  }
  t.is((await admin.get('/api/principals/eve')).status, 404);
});

test('GET /api/principals/{name}: a user reads itself; another principal is 403 ROLE_DENIED; unknown is 404', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const own = await alice.get('/api/principals/alice');
  t.is(own.status, 200);
  t.like(own.body, { name: 'alice', kind: 'user' });
  const other = await alice.get('/api/principals/bob');
  t.is(other.status, 403);
  t.is(other.body.code, 'ROLE_DENIED');
  t.is((await (await signIn(gw, 'admin')).get('/api/principals/nobody')).status, 404);
});

test('PUT /api/principals/{name} changes only the fields given', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const named = await admin.put('/api/principals/bob', { displayName: 'Robert' });
  t.is(named.status, 200);
  t.like(named.body, { displayName: 'Robert', roles: ['user'], disabled: false });
  const roled = await admin.put('/api/principals/bob', { roles: ['user', 'auditor'] });
  t.like(roled.body, { displayName: 'Robert', roles: ['user', 'auditor'] });
  t.is((await asSession(gw, await gw.login('bob')).get('/api/principals')).status, 200, 'the auditor role now lets bob list');
  t.is((await admin.put('/api/principals/bob', {})).status, 400);
  t.is((await admin.put('/api/principals/bob', { roles: ['wizard'] })).status, 400);
});

test('a disabled principal cannot sign in, and its live session is told to sign in again', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const bob = await signIn(gw, 'bob');
  t.is((await admin.put('/api/principals/bob', { disabled: true })).body.disabled, true);
  const login = await gw.call('POST', '/api/session', { body: { user: 'bob', password: PASSWORDS.bob } });
  t.is(login.status, 401);
  const live = await bob.get('/api/principals/bob');
  t.is(live.status, 401);
  t.like(live.body, { code: 'SESSION_EXPIRED', reauth: true });
  await admin.put('/api/principals/bob', { disabled: false });
  t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 201);
});

test('DELETE /api/principals/{name} removes the principal and ends its tokens', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const bob = await signIn(gw, 'bob');
  const reply = await admin.del('/api/principals/bob');
  t.is(reply.status, 204);
  t.is((await admin.get('/api/principals/bob')).status, 404);
  const live = await bob.post('/api/keys', {});
  t.is(live.status, 401);
  t.is(live.body.code, 'SESSION_EXPIRED');
  t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 401);
  t.is((await admin.del('/api/principals/bob')).status, 404);
});

test("PUT /api/principals/{name}/password: a user changes its own password, admin anyone's", async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  // api-surface.md 8.1.x: an own change carries the current password.
  t.is(
    (await alice.put('/api/principals/alice/password', { currentPassword: PASSWORDS.alice, password: 'alice-new-password' })).status,
    204,
  );
  t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } })).status, 401);
  t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'alice-new-password' } })).status, 201);
  const admin = await signIn(gw, 'admin');
  t.is((await admin.put('/api/principals/bob/password', { password: 'bob-new-password' })).status, 204);
  t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: 'bob-new-password' } })).status, 201);
  t.is((await admin.put('/api/principals/ops/password', { password: 'group-password' })).status, 400);
});

test("changing another user's password without admin is 403 ROLE_DENIED", async (t) => {
  const gw = await startGateway(t);
  const reply = await (await signIn(gw, 'alice')).put('/api/principals/bob/password', { password: 'taken-over-1' });
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ROLE_DENIED');
  t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 201);
});

test("GET /api/principals/{name}/groups lists the groups; a user may read its own, not another's", async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  await admin.put('/api/groups/ops/members/carol');
  const listed = await admin.get('/api/principals/carol/groups');
  t.is(listed.status, 200);
  t.like(listed.body, { complete: true });
  t.deepEqual(
    listed.body.items.map((g: { name: string }) => g.name),
    ['ops'],
  );
  const carol = await signIn(gw, 'carol');
  t.deepEqual(
    (await carol.get('/api/principals/carol/groups')).body.items.map((g: { name: string }) => g.name),
    ['ops'],
  );
  const denied = await carol.get('/api/principals/alice/groups');
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
});

test("PUT /api/principals/{name}/sender-key: own key for a user, shown as jkt; another's is 403, a private key 400", async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const { publicKey, privateKey } = await import('node:crypto').then((c) => c.generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  const jwk = publicKey.export({ format: 'jwk' });
  const reply = await alice.put('/api/principals/alice/sender-key', { jwk });
  t.is(reply.status, 200);
  t.regex(reply.body.jkt, /^[A-Za-z0-9_-]{43}$/);
  t.is((await alice.get('/api/principals/alice')).body.jkt, reply.body.jkt);
  const denied = await alice.put('/api/principals/bob/sender-key', { jwk });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
  t.is((await alice.put('/api/principals/alice/sender-key', { jwk: privateKey.export({ format: 'jwk' }) })).status, 400);
});

test('a principal cannot disable or delete itself: 409 CONFLICT, and nothing changes', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const disabled = await admin.put('/api/principals/admin', { disabled: true });
  t.is(disabled.status, 409);
  t.like(disabled.body, { code: 'CONFLICT', reason: 'a principal cannot disable itself' });
  const deleted = await admin.del('/api/principals/admin');
  t.is(deleted.status, 409);
  t.like((await admin.get('/api/principals/admin')).body, { name: 'admin', disabled: false });
});
