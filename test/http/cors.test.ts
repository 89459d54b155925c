import test from 'ava';
import { startGateway } from '../_support/gateway.js';

const ALLOWED = 'https://app.example.com';
const preflight = (origin: string, method = 'POST') => ({
  headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization, dpop, content-type' },
});

function corsHeaders(headers: Headers): string[] {
  return [...headers.keys()].filter((name) => name.startsWith('access-control-'));
}

test('a preflight from an allowed origin answers 204 with exactly the contract headers', async (t) => {
  const gw = await startGateway({ corsOrigins: [ALLOWED, 'http://localhost:5173'] });
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
  await gw.close();
});

test('an actual request from an allowed origin carries its origin back, never credentials', async (t) => {
  const gw = await startGateway({ corsOrigins: [ALLOWED] });
  const reply = await gw.call('GET', '/api/health', { headers: { Origin: ALLOWED } });
  t.is(reply.status, 200);
  t.is(reply.headers.get('access-control-allow-origin'), ALLOWED);
  t.is(reply.headers.get('access-control-allow-credentials'), null);
  t.is(reply.headers.get('set-cookie'), null);
  const error = await gw.call('GET', '/api/session', { headers: { Origin: ALLOWED } });
  t.is(error.status, 401);
  t.is(error.headers.get('access-control-allow-origin'), ALLOWED, 'errors are readable by the allowed page');
  await gw.close();
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
  const gw = await startGateway({ corsOrigins: [ALLOWED] });
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
  await gw.close();
});

test('with no allowlist the gateway sends no CORS header of any kind', async (t) => {
  const gw = await startGateway();
  const pre = await gw.call('OPTIONS', '/api/session', preflight(ALLOWED));
  t.deepEqual(corsHeaders(pre.headers), []);
  const actual = await gw.call('GET', '/api/health', { headers: { Origin: ALLOWED } });
  t.deepEqual(corsHeaders(actual.headers), []);
  await gw.close();
});

test('a request without Origin is served normally under an allowlist', async (t) => {
  const gw = await startGateway({ corsOrigins: [ALLOWED] });
  const reply = await gw.call('GET', '/health');
  t.is(reply.status, 200);
  t.deepEqual(corsHeaders(reply.headers), []);
  await gw.close();
});

test('a bad allowlist given to createGateway is refused', async (t) => {
  await t.throwsAsync(startGateway({ corsOrigins: ['https://app.example.com/'] }), { message: /corsOrigins/ });
});
