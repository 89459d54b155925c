import test from 'ava';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

// Issue 12 §4: an own password change proves the current password (SRP against the current
// verifier); an admin reset needs admin; any change ends every other session of that principal.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

test('attack: a stolen session changes its password without the current one -> 403 ROLE_DENIED', async (t) => {
  const gw = await startGateway(t);
  const stolen = await gw.login('alice');
  const missing = await gw.call('PUT', '/api/principals/alice/password', {
    headers: bearer(stolen),
    body: { password: 'attacker-pass-1' },
  });
  t.is(missing.status, 403);
  t.is(missing.body.code, 'ROLE_DENIED');
  const wrong = await gw.call('PUT', '/api/principals/alice/password', {
    headers: bearer(stolen),
    body: { currentPassword: 'not-her-password', password: 'attacker-pass-1' },
  });
  t.is(wrong.status, 403);
  t.is(wrong.body.code, 'ROLE_DENIED');
  const login = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(login.status, 201, 'the old password still works');
  t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'attacker-pass-1' } })).status, 401);
});

test('an own change with the current password succeeds, ends the other sessions and keeps this one', async (t) => {
  const gw = await startGateway(t);
  const other = await gw.login('alice');
  const current = await gw.login('alice');
  const bob = await gw.login('bob');
  const changed = await gw.call('PUT', '/api/principals/alice/password', {
    headers: bearer(current),
    body: { currentPassword: PASSWORDS.alice, password: 'alice-new-pass-1' },
  });
  t.is(changed.status, 204);
  t.is((await gw.call('GET', '/api/session', { headers: bearer(other) })).status, 401, 'the other session ends');
  t.is((await gw.call('POST', '/api/keys', { headers: bearer(other), body: {} })).status, 401);
  t.is((await gw.call('GET', '/api/session', { headers: bearer(current) })).status, 200, 'the session that changed it lives on');
  t.is((await gw.call('POST', '/api/keys', { headers: bearer(current), body: {} })).status, 201);
  t.is((await gw.call('GET', '/api/session', { headers: bearer(bob) })).status, 200, "another principal's session is untouched");
  t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'alice-new-pass-1' } })).status, 201);
  const sessions = await gw.call('GET', '/api/sessions', { headers: bearer(current) });
  t.is(sessions.status, 200, JSON.stringify(sessions.body));
  t.is(sessions.body.items.length, 2, 'the one that changed it and the new login');
});

test("attack: a user resets another user's password -> 403 ROLE_DENIED", async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const reply = await gw.call('PUT', '/api/principals/bob/password', {
    headers: bearer(alice),
    body: { currentPassword: PASSWORDS.alice, password: 'bob-taken-1' },
  });
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ROLE_DENIED');
});

test("an admin reset ends every session of the principal; the admin's own change needs its current password too", async (t) => {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const bob = await gw.login('bob');
  const reset = await gw.call('PUT', '/api/principals/bob/password', { headers: bearer(admin), body: { password: 'bob-reset-pass-1' } });
  t.is(reset.status, 204);
  const dead = await gw.call('GET', '/api/session', { headers: bearer(bob) });
  t.is(dead.status, 401);
  t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: 'bob-reset-pass-1' } })).status, 201);
  const own = await gw.call('PUT', '/api/principals/admin/password', { headers: bearer(admin), body: { password: 'admin-new-pass-1' } });
  t.is(own.status, 403);
  t.is(own.body.code, 'ROLE_DENIED');
});

test('attack: a stolen session guessing currentPassword in a loop is throttled as a login is (429 RATE_LIMITED)', async (t) => {
  const gw = await startGateway(t);
  const stolen = await gw.login('alice');
  const guess = (currentPassword: string) =>
    gw.call('PUT', '/api/principals/alice/password', { headers: bearer(stolen), body: { currentPassword, password: 'attacker-pass-1' } });
  const statuses: number[] = [];
  for (let i = 0; i < 41; i++) {
    const reply = await guess(`guess-${i}`);
    statuses.push(reply.status);
    if (reply.status === 429) {
      t.is(reply.body.code, 'RATE_LIMITED');
      t.truthy(reply.headers.get('retry-after'));
    }
  }
  t.deepEqual(statuses, [...Array<number>(5).fill(403), ...Array<number>(36).fill(429)], 'five guesses, then refused unchecked');
  const right = await guess(PASSWORDS.alice);
  t.is(right.status, 429, 'even the right current password waits: the answer tells nothing');
  t.is(right.headers.get('retry-after'), '30');
  // The same counters as a login: this address's login for alice waits too.
  const login = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(login.status, 429);
  t.is(login.body.code, 'RATE_LIMITED');
  gw.clock.advance(30_000);
  t.is((await guess(PASSWORDS.alice)).status, 204, 'after the wait the right current password works');
});

test('wrong logins of a name count against its own password change from that address, with the same 429', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('bob');
  for (let i = 0; i < 5; i++)
    t.is((await gw.call('POST', '/api/session', { body: { user: 'bob', password: 'not-the-password' } })).status, 401);
  const change = await gw.call('PUT', '/api/principals/bob/password', {
    headers: bearer(session),
    body: { currentPassword: PASSWORDS.bob, password: 'bob-new-pass-1' },
  });
  t.is(change.status, 429);
  t.is(change.body.code, 'RATE_LIMITED');
  t.is(change.headers.get('retry-after'), '30');
});
