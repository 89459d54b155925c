import test from 'ava';
import { bearer, createKey, signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const accessLines = (lines: readonly { message: string; fields: Record<string, unknown> }[]) =>
  lines.filter((line) => line.message === 'request');

test('one access-log line per request, with its operation, status, principal and session reference, never a secret', async (t) => {
  const gw = await startGateway(t);
  const login = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.true(login.status === 200 || login.status === 201, login.text);
  const sessionId = login.body.sessionId as string;
  const before = accessLines(gw.logger.lines).length;
  const reply = await gw.call('GET', '/api/session', {
    headers: { ...bearer(sessionId), 'X-Request-Id': 'req-42.a_b', traceparent: TRACEPARENT },
  });
  t.is(reply.status, 200);
  t.is(reply.headers.get('x-request-id'), 'req-42.a_b');
  t.is(reply.headers.get('traceparent'), TRACEPARENT);
  const lines = accessLines(gw.logger.lines);
  t.is(lines.length, before + 1);
  const line = lines.at(-1)!.fields;
  t.like(line, {
    requestId: 'req-42.a_b',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    operation: 'session.read',
    method: 'GET',
    status: 200,
    principal: 'alice',
  });
  t.is(typeof line.durationMs, 'number');
  t.regex(String(line.client), /127\.0\.0\.1/);
  t.regex(String(line.sessionRef), /.+/);
  const all = JSON.stringify(gw.logger.lines);
  t.false(all.includes(sessionId), 'no session id in any log line');
  t.false(all.includes(PASSWORDS.alice), 'no password in any log line');
});

test('a malformed X-Request-Id or traceparent is replaced or dropped, never echoed', async (t) => {
  const gw = await startGateway(t);
  for (const bad of ['x'.repeat(65), 'has space', 'semi;colon', 'ü']) {
    const reply = await gw.call('GET', '/health', {
      headers: { 'X-Request-Id': encodeURIComponent(bad) === bad ? bad : 'a%b', traceparent: '00-0-0-01' },
    });
    t.not(reply.headers.get('x-request-id'), bad);
    t.regex(reply.headers.get('x-request-id') ?? '', /^[0-9a-f]{16}$/);
    t.is(reply.headers.get('traceparent'), null);
  }
  const zeros = await gw.call('GET', '/health', { headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } });
  t.is(zeros.headers.get('traceparent'), null);
});

test('a failed request and an unknown path are logged once each, with their status and code', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  await createKey(alice);
  const before = accessLines(gw.logger.lines).length;
  t.is((await gw.call('GET', '/api/session', { headers: bearer('not-a-session') })).status, 401);
  t.is((await gw.call('GET', '/nowhere')).status, 404);
  const lines = accessLines(gw.logger.lines).slice(before);
  t.is(lines.length, 2);
  t.like(lines[0]!.fields, { operation: 'session.read', status: 401 });
  t.truthy(lines[0]!.fields.code);
  t.like(lines[1]!.fields, { operation: 'none', status: 404 });
  t.false(JSON.stringify(lines).includes('not-a-session'));
});

test('behind a trusted proxy the line names the forwarded client as `client` and the proxy as `peer`; an untrusted peer is the client', async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.1'] });
  const forwarded = { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' };
  const before = accessLines(gw.logger.lines).length;
  t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'wrong' }, headers: forwarded })).status, 401);
  t.is((await gw.call('GET', '/health', { headers: forwarded })).status, 200);
  t.is((await gw.call('HEAD', '/health', { headers: forwarded })).status, 200);
  const lines = accessLines(gw.logger.lines).slice(before);
  t.is(lines.length, 3);
  for (const line of lines) t.like(line.fields, { client: '203.0.113.9', peer: '127.0.0.1' }, JSON.stringify(line.fields));

  const direct = await startGateway(t);
  await direct.call('GET', '/api/session', { headers: forwarded });
  await direct.call('GET', '/health', { headers: forwarded });
  for (const line of accessLines(direct.logger.lines))
    t.like(line.fields, { client: '127.0.0.1', peer: '127.0.0.1' }, JSON.stringify(line.fields));
});
