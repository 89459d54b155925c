import test from 'ava';
import { PASSWORDS, startFaultyGateway, startGateway } from '../_support/gateway.js';
import { healthOnceChecked } from '../_support/health.js';

test('POST /login answers the session view and keeps the token on the gateway', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(reply.status, 200);
  t.deepEqual(Object.keys(reply.body).sort(), ['hasToken', 'principalId', 'sessionId', 'systemId', 'user']);
  t.is(reply.body.user, 'alice');
  t.true(Number.isInteger(reply.body.systemId));
  t.regex(reply.body.principalId, /^[0-9a-f]{16}$/);
  t.is(reply.body.hasToken, true);
  t.regex(reply.body.sessionId, /^[A-Za-z0-9_-]{43}$/);
  t.is(reply.headers.get('set-cookie'), null);
  t.is(reply.headers.get('cache-control'), 'no-store');
});

test('POST /login refuses a wrong password and an unknown user with 401 and no reauth', async (t) => {
  const gw = await startGateway(t);
  for (const body of [
    { user: 'alice', password: 'wrong' },
    { user: 'mallory', password: 'x' },
    { user: 'ops', password: 'x' },
  ]) {
    const reply = await gw.call('POST', '/login', { body });
    t.is(reply.status, 401);
    t.is(typeof reply.body.error, 'string');
    t.is(reply.body.reauth, undefined);
  }
});

test('POST /login answers 502 when the key server cannot be reached', async (t) => {
  const gw = await startFaultyGateway(t);
  gw.faults.unreachable = true;
  const reply = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(reply.status, 502);
  t.is(typeof reply.body.error, 'string');
});

const badLogins: [string, { body?: unknown; raw?: string; headers?: Record<string, string> }][] = [
  ['no body', {}],
  ['invalid JSON', { raw: '{"user":', headers: { 'content-type': 'application/json' } }],
  ['a JSON array', { body: [] }],
  ['missing password', { body: { user: 'alice' } }],
  ['missing user', { body: { password: 'x' } }],
  ['a number for user', { body: { user: 1, password: 'x' } }],
  ['an empty user', { body: { user: '', password: 'x' } }],
  ['an unknown field', { body: { user: 'alice', password: 'x', admin: true } }],
  ['a non-JSON media type', { raw: 'user=alice', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
];
for (const [name, request] of badLogins) {
  test(`POST /login answers 400 for ${name}`, async (t) => {
    const gw = await startGateway(t);
    const reply = await gw.call('POST', '/login', request);
    t.is(reply.status, 400);
    t.is(typeof reply.body.error, 'string');
  });
}

test('the 400 for a missing field names the field', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/login', { body: { user: 'alice' } });
  t.regex(reply.body.error, /password/);
});

test('POST /logout ends the session: the id is refused afterwards without reauth', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const out = await gw.call('POST', '/logout', { headers: { 'X-Session': session } });
  t.is(out.status, 200);
  t.deepEqual(out.body, { ok: true });
  const after = await gw.call('POST', '/keys', { headers: { 'X-Session': session } });
  t.is(after.status, 401);
  t.is(after.body.reauth, undefined);
  t.is((await gw.call('POST', '/logout', { headers: { 'X-Session': session } })).status, 401);
});

test('an authenticated route answers 401 without reauth for a missing, unknown or malformed X-Session', async (t) => {
  const gw = await startGateway(t);
  for (const headers of [{}, { 'X-Session': 'A'.repeat(43) }, { 'X-Session': 'short' }, { 'X-Session': '' }] as Record<string, string>[]) {
    for (const [method, path] of [
      ['POST', '/logout'],
      ['POST', '/keys'],
      ['POST', '/keys/export'],
      ['POST', '/keys/grant'],
      ['POST', '/keys/revoke'],
    ] as const) {
      const reply = await gw.call(method, path, { headers, body: {} });
      t.is(reply.status, 401, `${method} ${path}`);
      t.is(reply.body.reauth, undefined);
      t.is(typeof reply.body.error, 'string');
    }
  }
});

test('an expired key-server token answers 401 with reauth, and a new login works', async (t) => {
  const gw = await startGateway(t, {
    keyServer: { kind: 'embedded', seed: (await import('../_support/gateway.js')).SEED, tokenTtlSeconds: 60 },
  });
  const session = await gw.login('alice');
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': session } })).status, 200);
  gw.clock.advance(60_001);
  const expired = await gw.call('POST', '/keys', { headers: { 'X-Session': session } });
  t.is(expired.status, 401);
  t.is(expired.body.error, 'session expired');
  t.is(expired.body.reauth, true);
  t.is(typeof expired.body.detail, 'string');
  const again = await gw.login('alice');
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': again } })).status, 200);
});

test('a gateway session past its lifetime is unknown (401 without reauth)', async (t) => {
  const gw = await startGateway(t, { sessionTtlSeconds: 120 });
  const session = await gw.login('alice');
  gw.clock.advance(120_000);
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': session } });
  t.is(reply.status, 401);
  t.is(reply.body.reauth, undefined);
});

test('GET /health counts sessions: a login adds one, a failed login none, a logout removes one', async (t) => {
  const gw = await startGateway(t);
  const sessions = async () => (await gw.call('GET', '/health')).body.sessions;
  t.is(await sessions(), 0);
  const a = await gw.login('alice');
  await gw.login('bob');
  t.is(await sessions(), 2);
  await gw.call('POST', '/login', { body: { user: 'alice', password: 'wrong' } });
  t.is(await sessions(), 2);
  await gw.call('POST', '/logout', { headers: { 'X-Session': a } });
  t.is(await sessions(), 1);
});

test('GET /health reports the key server fingerprint and still answers when the key server is down', async (t) => {
  const gw = await startFaultyGateway(t);
  const up = await gw.call('GET', '/health');
  t.is(up.status, 200);
  t.deepEqual(up.body, { ok: true, ksFingerprint: gw.gateway.ksFingerprint, sessions: 0 });
  t.regex(up.body.ksFingerprint, /^[0-9a-f]{64}$/);
  gw.faults.unreachable = true;
  const down = await healthOnceChecked(
    () => gw.call('GET', '/health'),
    (reply) => reply.body.ok === false,
  );
  t.is(down.status, 200);
  t.is(down.body.ok, false);
  t.is(down.body.ksFingerprint, gw.gateway.ksFingerprint);
});

test('50 concurrent logins all succeed with distinct sessions', async (t) => {
  const gw = await startGateway(t);
  const users = ['alice', 'bob', 'carol'] as const;
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) => {
      const user = users[i % 3]!;
      return gw.call('POST', '/login', { body: { user, password: PASSWORDS[user] } });
    }),
  );
  t.deepEqual(
    replies.map((r) => r.status),
    Array(50).fill(200),
  );
  t.is(new Set(replies.map((r) => r.body.sessionId)).size, 50);
  t.is((await gw.call('GET', '/health')).body.sessions, 50);
});

test('no response and no log line carries a password or a key-server token', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.false(reply.text.includes(PASSWORDS.alice));
  const logs = JSON.stringify(gw.logger.lines);
  t.false(logs.includes(PASSWORDS.alice));
  t.false(logs.includes(reply.body.sessionId));
});
