import test from 'ava';
import { startGateway } from '../_support/gateway.js';

const ALLOWED = 'https://app.example.com';
const preflight = (origin: string, method = 'POST') => ({
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': method,
    'Access-Control-Request-Headers': 'authorization, dpop, content-type',
  },
});

function corsHeaders(headers: Headers): string[] {
  return [...headers.keys()].filter((name) => name.startsWith('access-control-'));
}

test('a preflight from an allowed origin answers 204 with exactly the contract headers', async (t) => {
  const gw = await startGateway(t, { corsOrigins: [ALLOWED, 'http://localhost:5173'] });
  for (const path of ['/api/session', '/api/keys/abc/export', '/login', '/anything']) {
    const reply = await gw.call('OPTIONS', path, preflight(ALLOWED));
    t.is(reply.status, 204, path);
    t.is(reply.headers.get('access-control-allow-origin'), ALLOWED);
    t.is(reply.headers.get('access-control-allow-methods'), 'GET, POST, PUT, DELETE');
    t.is(reply.headers.get('access-control-allow-headers'), 'Authorization, Content-Type, DPoP');
    t.is(reply.headers.get('access-control-max-age'), '600');
    t.is(reply.headers.get('access-control-allow-credentials'), null);
    t.regex(reply.headers.get('vary') ?? '', /Origin/);
  }
});

test('an actual request from an allowed origin carries its origin back, never credentials', async (t) => {
  const gw = await startGateway(t, { corsOrigins: [ALLOWED] });
  const reply = await gw.call('GET', '/api/health', { headers: { Origin: ALLOWED } });
  t.is(reply.status, 200);
  t.is(reply.headers.get('access-control-allow-origin'), ALLOWED);
  t.is(reply.headers.get('access-control-allow-credentials'), null);
  t.is(reply.headers.get('set-cookie'), null);
  const error = await gw.call('GET', '/api/session', { headers: { Origin: ALLOWED } });
  t.is(error.status, 401);
  t.is(error.headers.get('access-control-allow-origin'), ALLOWED, 'errors are readable by the allowed page');
});

test("a request from the gateway's own origin (its console) gets no Access-Control-* header and is not logged as refused", async (t) => {
  const gw = await startGateway(t, { corsOrigins: [ALLOWED] });
  const own = new URL(gw.url).origin;
  const reply = await gw.call('POST', '/api/session', { headers: { Origin: own }, body: { user: 'alice', password: 'wrong-password-9' } });
  t.is(reply.status, 401);
  t.deepEqual(corsHeaders(reply.headers), []);
  const pre = await gw.call('OPTIONS', '/api/session', preflight(own));
  t.deepEqual(corsHeaders(pre.headers), [], 'a preflight from it is not answered as an allowed one');
  t.not(pre.status, 204);
  t.false(gw.logger.lines.some((line) => line.message === 'cross-origin request refused'));
  const other = await gw.call('GET', '/api/health', { headers: { Origin: own.replace('127.0.0.1', 'localhost') } });
  t.deepEqual(corsHeaders(other.headers), []);
  t.true(
    gw.logger.lines.some((line) => line.message === 'cross-origin request refused'),
    'another host name for the same machine is another origin',
  );
});

const refusedOrigins = [
  'https://evil.example.com',
  'http://app.example.com',
  'https://app.example.com:8443',
  'https://APP.example.com.evil.net',
  'https://app.example.co',
  'null',
];
test('a refused origin gets no Access-Control-* header, and is logged', async (t) => {
  const gw = await startGateway(t, { corsOrigins: [ALLOWED] });
  for (const origin of refusedOrigins) {
    const pre = await gw.call('OPTIONS', '/api/session', preflight(origin));
    t.deepEqual(corsHeaders(pre.headers), [], origin);
    t.not(pre.status, 204);
    const actual = await gw.call('GET', '/api/health', { headers: { Origin: origin } });
    t.deepEqual(corsHeaders(actual.headers), [], origin);
    t.true(
      gw.logger.lines.some((line) => line.level === 'warn' && line.fields.origin === origin),
      `logged ${origin}`,
    );
  }
});

test('with no allowlist the gateway sends no CORS header of any kind', async (t) => {
  const gw = await startGateway(t);
  const pre = await gw.call('OPTIONS', '/api/session', preflight(ALLOWED));
  t.deepEqual(corsHeaders(pre.headers), []);
  const actual = await gw.call('GET', '/api/health', { headers: { Origin: ALLOWED } });
  t.deepEqual(corsHeaders(actual.headers), []);
});

test('a request without Origin is served normally under an allowlist', async (t) => {
  const gw = await startGateway(t, { corsOrigins: [ALLOWED] });
  const reply = await gw.call('GET', '/health');
  t.is(reply.status, 200);
  t.deepEqual(corsHeaders(reply.headers), []);
});

test('a bad allowlist given to createGateway is refused', async (t) => {
  await t.throwsAsync(startGateway(t, { corsOrigins: ['https://app.example.com/'] }), { message: /corsOrigins/ });
});
