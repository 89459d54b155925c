import { connect, type Socket } from 'node:net';
import test from 'ava';
import { CONFIG_DEFAULTS } from '../../src/app/config/config.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

/** Issue 13 §7: the HTTP edge. Timeouts are small in these tests; the wait for each cut is bounded. */
const FAST = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, maxConnections: 50 };

async function open(t: { teardown(fn: () => void): void }, gw: TestGateway): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(gw.url).port) });
  t.teardown(() => socket.destroy());
  socket.on('error', () => undefined);
  await new Promise<void>((ready) => socket.once('connect', ready));
  return socket;
}

/** Resolves with the ms until the server closed the socket, or `undefined` after `boundMs`. */
function closedWithin(socket: Socket, boundMs: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((done) => {
    const timer = setTimeout(() => done(undefined), boundMs);
    socket.once('close', () => (clearTimeout(timer), done(Date.now() - started)));
  });
}

/** Writes one byte every `everyMs` until the socket closes (a slowloris client). */
function dribble(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** One raw HTTP exchange: the first response's status line, or `undefined` if the socket closed first. */
function statusOf(socket: Socket, request: string): Promise<{ status: number | undefined; text: string }> {
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.write(request);
  return new Promise((done) => {
    const finish = () =>
      done({ status: /^HTTP\/1\.1 (\d{3})/.exec(text) ? Number(/^HTTP\/1\.1 (\d{3})/.exec(text)![1]) : undefined, text });
    socket.once('close', finish);
    socket.once('end', finish);
    const poll = setInterval(() => {
      if (/\r\n\r\n/.test(text) && /Content-Length: (\d+)/i.test(text)) {
        const length = Number(/Content-Length: (\d+)/i.exec(text)![1]);
        if (text.length - text.indexOf('\r\n\r\n') - 4 >= length) clearInterval(poll), finish();
      }
    }, 10);
    socket.once('close', () => clearInterval(poll));
  });
}

test('a slowloris client dribbling its headers is cut off by the headers timeout', async (t) => {
  const gw = await startGateway(t, { http: FAST });
  const socket = await open(t, gw);
  dribble(
    socket,
    'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n',
    40,
  );
  const took = await closedWithin(socket, 5_000);
  t.not(took, undefined, 'the connection is still open after 5 s');
  t.true(took! < 4_000, `${took} ms`);
});

test('a client dribbling its body is cut off by the request timeout', async (t) => {
  const gw = await startGateway(t, { http: FAST });
  const socket = await open(t, gw);
  socket.write('POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n');
  dribble(socket, '{"user":"alice",'.padEnd(4000, ' '), 40);
  const took = await closedWithin(socket, 5_000);
  t.not(took, undefined, 'the connection is still open after 5 s');
});

test('an idle keep-alive connection is closed after the keep-alive timeout', async (t) => {
  const gw = await startGateway(t, { http: FAST });
  const socket = await open(t, gw);
  const reply = await statusOf(socket, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(reply.status, 200);
  const took = await closedWithin(socket, 5_000);
  t.not(took, undefined, 'the idle connection is still open after 5 s');
});

test('connections over the cap are closed without an answer; those under it are served', async (t) => {
  const gw = await startGateway(t, { http: { ...FAST, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, maxConnections: 2 } });
  const first = await open(t, gw);
  await open(t, gw);
  const third = await open(t, gw);
  const refused = await statusOf(third, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(refused.status, undefined, refused.text);
  t.is((await statusOf(first, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n')).status, 200);
});

test('by default a slow client is cut off within 30 s and the connections are capped', async (t) => {
  const gw = await startGateway(t);
  const { server } = await gw.gateway.listen(0, '127.0.0.1');
  // Node checks the request and headers timeouts every connectionsCheckingInterval: both add up.
  const interval = CONFIG_DEFAULTS.http.connectionsCheckingIntervalMs;
  t.true(server.headersTimeout + interval <= 30_000, `headers ${server.headersTimeout} + ${interval}`);
  t.true(server.requestTimeout > 0 && server.requestTimeout + interval <= 30_000, `request ${server.requestTimeout} + ${interval}`);
  t.true(server.keepAliveTimeout > 0 && server.keepAliveTimeout <= 30_000);
  t.true(Number.isFinite(server.maxConnections) && server.maxConnections > 0);
});

const OVER = 1024 * 1024 + 1;

for (const [method, path] of [
  ['GET', '/health'],
  ['GET', '/api/health'],
  ['DELETE', '/api/session'],
  ['GET', '/api/server/version'],
  ['GET', '/api/keys/AAAAAAAAAAAAAAAAAAAAAA'],
  ['DELETE', '/api/keys/AAAAAAAAAAAAAAAAAAAAAA/acl/bob'],
] as const) {
  test(`a body over 1 MB is 400 on ${method} ${path}, which takes no body`, async (t) => {
    const gw = await startGateway(t);
    const session = await gw.login('alice');
    const socket = await open(t, gw);
    // The declared length alone is refused: the body is never sent.
    const reply = await statusOf(
      socket,
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${session}\r\nContent-Length: ${OVER}\r\n\r\n`,
    );
    t.is(reply.status, 400, reply.text);
    if (path.startsWith('/api/')) t.regex(reply.text, /"code":"BAD_REQUEST"/);
  });
}

test('a small body on a route without one is still served', async (t) => {
  const gw = await startGateway(t);
  const socket = await open(t, gw);
  const reply = await statusOf(socket, 'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
  t.is(reply.status, 200, reply.text);
});

for (const path of ['/login', '/api/session']) {
  test(`a malformed body on POST ${path} is logged by its position, never by a fragment of it`, async (t) => {
    const gw = await startGateway(t);
    const secret = 'Tr0ub4dor-and-3';
    for (const raw of [
      `{"user":"alice","password":${secret}}`,
      `{"user":"alice","password":"${secret}`,
      `{"user":"alice" "password":"${secret}"}`,
    ]) {
      const reply = await gw.call('POST', path, { raw, headers: { 'content-type': 'application/json' } });
      t.is(reply.status, 400, reply.text);
      t.false(reply.text.includes(secret));
    }
    const logged = JSON.stringify(gw.logger.lines);
    // Any five characters of the password in a row count as a fragment.
    for (let at = 0; at + 5 <= secret.length; at++) t.false(logged.includes(secret.slice(at, at + 5)), logged);
    t.false(logged.includes('alice'), logged);
    t.true(
      gw.logger.lines.some((line) => /position \d+/.test(JSON.stringify(line.fields))),
      logged,
    );
  });
}
