import test from 'ava';
import { PASSWORDS, startFaultyGateway, startGateway } from '../_support/gateway.js';

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

test('POST /api/session answers 201 with the session view and the id, never the token', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(reply.status, 201);
  t.regex(reply.body.sessionId, /^[A-Za-z0-9_-]{43}$/);
  t.like(reply.body, { user: 'alice', kind: 'password', bound: false });
  t.regex(reply.body.principalId, /^[0-9a-f]{16}$/);
  t.false('jkt' in reply.body);
  t.true(Date.parse(reply.body.expiresAt) > Date.now());
  t.is(reply.headers.get('set-cookie'), null);
});

test('POST /api/session refuses a wrong password with 401 WRONG_CREDENTIAL', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'nope' } });
  t.is(reply.status, 401);
  t.is(reply.body.code, 'WRONG_CREDENTIAL');
  t.is(typeof reply.body.detail, 'string');
});

test('a wrong password and an unknown user are refused in the same words, which are not the code again', async (t) => {
  const gw = await startGateway(t);
  const wrong = await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'nope' } });
  const unknown = await gw.call('POST', '/api/session', { body: { user: 'nobody-here', password: 'nope' } });
  t.is(wrong.body.detail, 'credential refused: wrong user name or password');
  t.deepEqual(unknown.body, wrong.body, 'no way to tell a known name from an unknown one');
});

test('POST /api/session answers 400 BAD_REQUEST naming the field', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('POST', '/api/session', { body: { user: 'alice' } });
  t.is(reply.status, 400);
  t.is(reply.body.code, 'BAD_REQUEST');
  t.regex(reply.body.detail, /password/);
});

test('an unreachable key server is 503 KEY_SERVER_UNAVAILABLE, retryable, scope process, with Retry-After', async (t) => {
  const gw = await startFaultyGateway(t);
  gw.faults.unreachable = true;
  const reply = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(reply.status, 503);
  t.like(reply.body, { code: 'KEY_SERVER_UNAVAILABLE', retryable: true, scope: 'process' });
  t.regex(reply.headers.get('retry-after') ?? '', /^\d+$/);
  const health = await gw.call('GET', '/api/health');
  t.is(health.status, 503);
  t.is(health.body.ok, false);
  t.is(health.body.checks.keyServer, 'unavailable');
  t.is(health.body.ksFingerprint, gw.gateway.ksFingerprint);
});

test('GET /api/session shows the session; GET /api/sessions lists references, never ids', async (t) => {
  const gw = await startGateway(t);
  const first = (await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } })).body.sessionId;
  const second = await gw.login('alice');
  await gw.login('bob');
  const view = await gw.call('GET', '/api/session', { headers: bearer(first) });
  t.is(view.status, 200);
  t.like(view.body, { user: 'alice', kind: 'password', bound: false });
  t.false('sessionId' in view.body);
  const list = await gw.call('GET', '/api/sessions', { headers: bearer(first) });
  t.is(list.status, 200);
  t.is(list.body.complete, true);
  t.is(list.body.items.length, 2);
  t.false(list.text.includes(first));
  t.false(list.text.includes(second));
  for (const item of list.body.items) t.regex(item.ref, /^[A-Za-z0-9_-]{12}$/);
});

test('a session minted on one surface is presented on the other', async (t) => {
  const gw = await startGateway(t);
  const fromRoot = await gw.login('alice');
  t.is((await gw.call('GET', '/api/session', { headers: bearer(fromRoot) })).status, 200);
  const fromApi = (await gw.call('POST', '/api/session', { body: { user: 'bob', password: PASSWORDS.bob } })).body.sessionId;
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': fromApi } })).status, 200);
});

test('session refusals: no bearer is SESSION_REQUIRED, an unknown one SESSION_UNKNOWN', async (t) => {
  const gw = await startGateway(t);
  for (const headers of [{}, { Authorization: 'Basic YWxpY2U6eA==' }, { Authorization: 'Bearer' }] as Record<string, string>[]) {
    const reply = await gw.call('GET', '/api/session', { headers });
    t.is(reply.status, 401);
    t.is(reply.body.code, 'SESSION_REQUIRED');
  }
  const unknown = await gw.call('GET', '/api/session', { headers: bearer('A'.repeat(43)) });
  t.is(unknown.status, 401);
  t.is(unknown.body.code, 'SESSION_UNKNOWN');
  t.is(unknown.body.reauth, undefined);
});

test('DELETE /api/session answers 204 for a live credential, a dead one, and none', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  t.is((await gw.call('DELETE', '/api/session', { headers: bearer(session) })).status, 204);
  t.is((await gw.call('GET', '/api/session', { headers: bearer(session) })).body.code, 'SESSION_UNKNOWN');
  t.is((await gw.call('DELETE', '/api/session', { headers: bearer(session) })).status, 204);
  t.is((await gw.call('DELETE', '/api/session')).status, 204);
  t.is((await gw.call('DELETE', '/api/session', { headers: bearer('garbage') })).status, 204);
  t.is((await gw.call('GET', '/health')).body.sessions, 0);
});

test('a wrong method on a known /api path is 405 METHOD_NOT_ALLOWED with Allow', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('PUT', '/api/session');
  t.is(reply.status, 405);
  t.is(reply.body.code, 'METHOD_NOT_ALLOWED');
  t.deepEqual(reply.headers.get('allow')!.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'POST']);
  const health = await gw.call('POST', '/api/health');
  t.is(health.status, 405);
  t.deepEqual(health.headers.get('allow')!.split(', ').sort(), ['GET', 'HEAD']);
});

test('an unknown /api path is 404 NOT_FOUND in the /api error shape', async (t) => {
  const gw = await startGateway(t);
  for (const path of ['/api', '/api/', '/api/nope', '/api/session/']) {
    const reply = await gw.call('GET', path);
    t.is(reply.status, 404, path);
    t.is(reply.body.code, 'NOT_FOUND');
    t.is(typeof reply.body.detail, 'string');
  }
});

test('GET /api/health answers the health body with the same fingerprint as /health', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('GET', '/api/health');
  t.is(reply.status, 200);
  t.like(reply.body, { ok: true, sessions: 0, checks: { keyServer: 'ok', sessionStore: 'ok' } });
  t.is(reply.body.ksFingerprint, (await gw.call('GET', '/health')).body.ksFingerprint);
  t.regex(reply.body.version, /^\d+\.\d+\.\d+/);
});
