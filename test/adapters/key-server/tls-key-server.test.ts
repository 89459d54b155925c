import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import {
  type AddressInfo,
  createConnection as createNetConnection,
  createServer as createNetServer,
  type Server as NetServer,
} from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import test from 'ava';
import { TlsKeyServer, type TlsKeyServerOptions } from '../../../src/adapters/key-server/tls-key-server.js';
import { CryptoRandom } from '../../../src/adapters/random/crypto-random.js';
import { Secret } from '../../../src/domain/secret/secret.js';
import { certificateFingerprint, createIdentityCertificate } from '../../../src/keyserver/identity/identity-certificate.js';

const random = new CryptoRandom();
const identity = await createIdentityCertificate();
const other = await createIdentityCertificate();
const servers: (Server | NetServer)[] = [];
test.after.always(() => {
  for (const server of servers) server.close();
});

async function listening<S extends Server | NetServer>(server: S): Promise<{ server: S; url: string }> {
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** An HTTPS server with the key server's identity whose answers the test decides. */
function fakeDaemon(handler: (req: IncomingMessage, res: ServerResponse) => void, cert = identity) {
  return listening(createHttpsServer({ cert: cert.certPem, key: cert.keyPem, minVersion: 'TLSv1.3' }, handler));
}

function answer(status: number, body: string) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  };
}

const health = answer(200, JSON.stringify({ ok: true, protocol: 1 }));
const pinned = (url: string, extra: Partial<TlsKeyServerOptions> = {}): TlsKeyServerOptions => ({
  url,
  fingerprint: certificateFingerprint(identity.certPem),
  timeoutMs: 2_000,
  resumeSessions: true,
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<{ code?: string; message: string; ms: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    return { ...(error as { code?: string; message: string }), message: (error as Error).message, ms: Date.now() - started };
  }
  throw new Error('expected a failure');
}

test('never writes a byte to a server whose certificate does not match the pin', async (t) => {
  let received = 0;
  const rogue = createTlsServer({ cert: other.certPem, key: other.keyPem }, (socket) =>
    socket.on('data', (chunk) => (received += chunk.length)),
  );
  const { url } = await listening(rogue);
  const keyServer = await TlsKeyServer.start(pinned(url), random);
  for (const attempt of [keyServer.connect(new Secret('a-token')), keyServer.login('alice', new Secret('pw')), keyServer.ping()]) {
    const error = await failure(attempt);
    t.is(error.code, 'KEY_SERVER_UNAVAILABLE');
    t.regex(error.message, /pinned fingerprint/);
  }
  await new Promise((settle) => setTimeout(settle, 50));
  t.is(received, 0);
  t.is(keyServer.fingerprint(), certificateFingerprint(identity.certPem));
});

test('under CA trust, learns the fingerprint of the certificate it validated', async (t) => {
  const { url } = await fakeDaemon(health);
  const keyServer = await TlsKeyServer.start({ url, ca: identity.certPem, timeoutMs: 2_000, resumeSessions: true }, random);
  t.is(keyServer.fingerprint(), certificateFingerprint(identity.certPem));
});

test('under CA trust, refuses a certificate the CA did not sign, and one for another host', async (t) => {
  const { url } = await fakeDaemon(health);
  const unsigned = await failure(TlsKeyServer.start({ url, ca: other.certPem, timeoutMs: 2_000, resumeSessions: true }, random));
  t.is(unsigned.code, 'KEY_SERVER_UNAVAILABLE');
  const elsewhere = await createIdentityCertificate({ hosts: ['ks.elsewhere.example'] });
  const { url: misnamed } = await fakeDaemon(health, elsewhere);
  const wrongHost = await failure(
    TlsKeyServer.start({ url: misnamed, ca: elsewhere.certPem, timeoutMs: 2_000, resumeSessions: true }, random),
  );
  t.is(wrongHost.code, 'KEY_SERVER_UNAVAILABLE');
  t.regex(wrongHost.message, /ALTNAME/);
});

test('a closed port is KEY_SERVER_UNAVAILABLE at once', async (t) => {
  const { server, url } = await fakeDaemon(health);
  await new Promise((closed) => server.close(closed));
  const keyServer = await TlsKeyServer.start(pinned(url, { timeoutMs: 5_000 }), random);
  const error = await failure(keyServer.ping());
  t.is(error.code, 'KEY_SERVER_UNAVAILABLE');
  t.regex(error.message, /ECONNREFUSED/);
  t.true(error.ms < 2_500, `${error.ms} ms: not the timeout`);
});

test('a server that never completes the handshake, or never answers, is KEY_SERVER_UNAVAILABLE within the timeout', async (t) => {
  const { url: silent } = await listening(createNetServer(() => undefined));
  const { url: mute } = await fakeDaemon(() => undefined);
  for (const url of [silent, mute]) {
    const keyServer = await TlsKeyServer.start(pinned(url, { timeoutMs: 300 }), random);
    const error = await failure(keyServer.ping());
    t.is(error.code, 'KEY_SERVER_UNAVAILABLE', url);
    t.true(error.ms >= 250 && error.ms < 3_000, `${error.ms} ms`);
  }
});

test('resumes TLS sessions across connections when told to, and makes full handshakes otherwise', async (t) => {
  const { server, url } = await fakeDaemon(health);
  const reused: boolean[] = [];
  server.on('secureConnection', (socket) => reused.push(socket.isSessionReused()));
  for (const resumeSessions of [true, false]) {
    reused.length = 0;
    const keyServer = await TlsKeyServer.start(pinned(url, { resumeSessions }), random);
    for (let i = 0; i < 4; i += 1) await keyServer.ping();
    t.is(reused[0], false);
    t.is(reused.slice(1).filter(Boolean).length, resumeSessions ? 3 : 0, `resumeSessions ${resumeSessions}: ${reused}`);
  }
});

const replies: [string, number, string, string][] = [
  ['a daemon error keeps its code', 403, JSON.stringify({ code: 'ACL_DENIED', detail: 'export: not granted' }), 'ACL_DENIED'],
  ['an expired token is SESSION_EXPIRED', 401, JSON.stringify({ code: 'SESSION_EXPIRED', detail: 'token expired' }), 'SESSION_EXPIRED'],
  [
    'a code outside the port vocabulary is KEY_SERVER_FAILED',
    503,
    JSON.stringify({ code: 'SESSION_STORE_UNAVAILABLE', detail: 'x' }),
    'KEY_SERVER_FAILED',
  ],
  ['an error page is KEY_SERVER_FAILED', 502, '<html>bad gateway</html>', 'KEY_SERVER_FAILED'],
  ['a success that is not JSON is KEY_SERVER_FAILED', 200, 'ok', 'KEY_SERVER_FAILED'],
  ['a success off the protocol is KEY_SERVER_FAILED', 200, JSON.stringify({ result: { user: 7 } }), 'KEY_SERVER_FAILED'],
  ['a success without a result is KEY_SERVER_FAILED', 200, JSON.stringify({ user: 'alice' }), 'KEY_SERVER_FAILED'],
];
for (const [behaviour, status, body, code] of replies) {
  test(`maps replies: ${behaviour}`, async (t) => {
    let authorization: string | undefined;
    const { url } = await fakeDaemon((req, res) => {
      authorization = req.headers.authorization;
      answer(status, body)(req, res);
    });
    const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok-123'));
    const error = await failure(connection.call('whoami', {}));
    await connection.close();
    t.is(error.code, code);
    t.is(authorization, 'Bearer tok-123');
    t.false(error.message.includes('tok-123'));
  });
}

test('a connection refuses calls once closed', async (t) => {
  const { url } = await fakeDaemon(
    answer(200, JSON.stringify({ result: { user: 'alice', systemId: 1001, principalId: '0011223344556677' } })),
  );
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.is((await connection.call('whoami', {})).user, 'alice');
  t.is((await connection.call('whoami', {})).systemId, 1001, 'a second call on the same connection');
  await connection.close();
  await connection.close();
  t.is((await failure(connection.call('whoami', {}))).code, 'KEY_SERVER_FAILED');
});

/**
 * A daemon that offers only the framed transport: each request line is handed to `answer`, whose
 * string (a whole answer line, or bytes that are not one) is written back; undefined answers nothing.
 */
function framedDaemon(answer: (request: Record<string, unknown>, socket: TLSSocket) => string | undefined) {
  const server = createTlsServer(
    { cert: identity.certPem, key: identity.keyPem, minVersion: 'TLSv1.3', ALPNProtocols: ['keygate/1'] },
    (socket) => {
      let pending = '';
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
          const reply = answer(JSON.parse(pending.slice(0, end)), socket);
          pending = pending.slice(end + 1);
          if (reply !== undefined) socket.write(reply);
        }
      });
    },
  );
  return listening(server);
}

const frame = (status: number, body: unknown) => `${JSON.stringify({ status, body })}\n`;
const ALICE = { user: 'alice', systemId: 1001, principalId: '0011223344556677' };

test('speaks the framed transport to a daemon that offers it: one line per call, the token as its authorization, calls on one connection', async (t) => {
  const requests: Record<string, unknown>[] = [];
  const connections = new Set<TLSSocket>();
  const { url } = await framedDaemon((request, socket) => {
    requests.push(request);
    connections.add(socket);
    return frame(200, { result: ALICE });
  });
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok-123'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  await connection.close();
  t.deepEqual(requests[0], { method: 'POST', path: '/v1/op/whoami', authorization: 'Bearer tok-123', body: {} });
  t.is(requests.length, 2);
  t.is(connections.size, 1, 'both calls on the one connection of the request');
});

test('an HTTP/1.1 daemon (one that offers no framed transport) is spoken to in HTTP/1.1', async (t) => {
  const protocols: (string | false | null)[] = [];
  const { server, url } = await fakeDaemon(answer(200, JSON.stringify({ result: ALICE })));
  server.on('secureConnection', (socket: TLSSocket) => protocols.push(socket.alpnProtocol));
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  await connection.close();
  t.deepEqual(protocols, ['http/1.1']);
});

const framedReplies: [string, (request: Record<string, unknown>, socket: TLSSocket) => string | undefined, string][] = [
  ['a daemon error keeps its code', () => frame(403, { code: 'ACL_DENIED', detail: 'export: not granted' }), 'ACL_DENIED'],
  [
    'a code outside the port vocabulary is KEY_SERVER_FAILED',
    () => frame(503, { code: 'SESSION_STORE_UNAVAILABLE', detail: 'x' }),
    'KEY_SERVER_FAILED',
  ],
  ['an answer that is not JSON is KEY_SERVER_FAILED', () => 'HTTP/1.1 200 OK\n', 'KEY_SERVER_FAILED'],
  ['an answer off the frame is KEY_SERVER_FAILED', () => `${JSON.stringify({ status: 200, result: ALICE })}\n`, 'KEY_SERVER_FAILED'],
  ['a success off the protocol is KEY_SERVER_FAILED', () => frame(200, { result: { user: 7 } }), 'KEY_SERVER_FAILED'],
  ['an answer over 4 MiB is KEY_SERVER_FAILED', () => `{"status":200,"body":"${'a'.repeat(4 * 1024 * 1024)}"}\n`, 'KEY_SERVER_FAILED'],
  [
    'a connection closed before the answer is KEY_SERVER_UNAVAILABLE',
    (_request, socket) => void socket.destroy(),
    'KEY_SERVER_UNAVAILABLE',
  ],
];
for (const [behaviour, reply, code] of framedReplies) {
  test(`maps framed answers: ${behaviour}`, async (t) => {
    const { url } = await framedDaemon(reply);
    const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok-123'));
    const error = await failure(connection.call('whoami', {}));
    await connection.close();
    t.is(error.code, code);
    t.false(error.message.includes('tok-123'));
  });
}

test('a framed connection the daemon closed between two calls is dialed again, validated the same way', async (t) => {
  const sockets: TLSSocket[] = [];
  const closed: Promise<void>[] = [];
  const { url } = await framedDaemon((_request, socket) => {
    sockets.push(socket);
    closed.push(new Promise((done) => socket.once('close', () => done())));
    socket.end(frame(200, { result: ALICE }));
    return undefined;
  });
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  // Closed at both ends: the gateway saw the end of the connection.
  await closed[0];
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  await connection.close();
  t.is(new Set(sockets).size, 2);
});

test('a framed daemon that never answers is KEY_SERVER_UNAVAILABLE within the timeout', async (t) => {
  const { url } = await framedDaemon(() => undefined);
  const keyServer = await TlsKeyServer.start(pinned(url, { timeoutMs: 300 }), random);
  const error = await failure(keyServer.ping());
  t.is(error.code, 'KEY_SERVER_UNAVAILABLE');
  t.true(error.ms >= 250 && error.ms < 3_000, `${error.ms} ms`);
});

test('a framed connection dialed again to a daemon that no longer offers the framed transport is KEY_SERVER_UNAVAILABLE', async (t) => {
  let handshakes = 0;
  const closed: Promise<void>[] = [];
  // The first handshake chooses the framed transport, every later one HTTP/1.1 (a daemon replaced by an older one).
  const server = createTlsServer(
    {
      cert: identity.certPem,
      key: identity.keyPem,
      minVersion: 'TLSv1.3',
      ALPNCallback: () => (handshakes++ === 0 ? 'keygate/1' : 'http/1.1'),
    },
    (socket) => {
      closed.push(new Promise((done) => socket.once('close', () => done())));
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(frame(200, { result: ALICE })));
    },
  );
  const { url } = await listening(server);
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  // Closed at both ends: the gateway saw the end of the connection.
  await closed[0];
  const error = await failure(connection.call('whoami', {}));
  await connection.close();
  t.is(error.code, 'KEY_SERVER_UNAVAILABLE');
  t.regex(error.message, /no longer offers the framed transport/);
  t.is(handshakes, 2);
});

test('a framed connection closed while it is dialed again writes nothing and leaves no connection open', async (t) => {
  let calls = 0;
  const { url: daemonUrl } = await framedDaemon((_request, socket) => {
    calls++;
    socket.end(frame(200, { result: ALICE }));
    return undefined;
  });
  // A TCP relay in front of the daemon that holds the second connection until the test lets it through.
  let release!: () => void;
  const released = new Promise<void>((go) => (release = go));
  let held!: () => void;
  const holding = new Promise<void>((seen) => (held = seen));
  const relayed: Promise<void>[] = [];
  const relay = createNetServer((client) => {
    client.on('error', () => undefined);
    relayed.push(new Promise((done) => client.once('close', () => done())));
    const gate = relayed.length === 1 ? Promise.resolve() : (held(), released);
    void gate.then(() => {
      const upstream = createNetConnection(Number(new URL(daemonUrl).port), '127.0.0.1');
      upstream.on('error', () => undefined);
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  });
  const { url } = await listening(relay);
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  // The daemon ended the first connection and the relay closed it; the gateway reads that end in
  // the loop's next poll phase, before the next check phase.
  await relayed[0];
  await new Promise((polled) => setImmediate(polled));
  const second = failure(connection.call('whoami', {}));
  await holding; // the second connection is being dialed
  await connection.close();
  release();
  const error = await second;
  t.is(error.code, 'KEY_SERVER_UNAVAILABLE');
  t.regex(error.message, /the connection was closed/);
  // The connection the dial made is ended at once, with no call written on it.
  const ended = await Promise.race([relayed[1]!.then(() => true), new Promise<boolean>((late) => setTimeout(() => late(false), 2_000))]);
  t.true(ended, 'the connection dialed after the close is not left open');
  t.is(calls, 1);
});

const BOB = { user: 'bob', systemId: 1002, principalId: '8899aabbccddeeff' };

test('a framed daemon that answers one call twice is KEY_SERVER_FAILED, and the next call goes out on a new connection', async (t) => {
  const sockets = new Set<TLSSocket>();
  const { url } = await framedDaemon((_request, socket) => {
    sockets.add(socket);
    // Two answers in one write: the second would be taken for the answer of the connection's next call.
    return sockets.size === 1 ? frame(200, { result: ALICE }) + frame(200, { result: BOB }) : frame(200, { result: ALICE });
  });
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  const error = await failure(connection.call('whoami', {}));
  t.is(error.code, 'KEY_SERVER_FAILED');
  t.regex(error.message, /more than one answer/);
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  await connection.close();
  t.is(sockets.size, 2);
});

test('bytes a framed daemon sends between two calls end the connection: the next call is dialed anew and gets its own answer', async (t) => {
  const sockets: TLSSocket[] = [];
  const closed: Promise<void>[] = [];
  const { url } = await framedDaemon((_request, socket) => {
    if (!sockets.includes(socket)) {
      sockets.push(socket);
      closed.push(new Promise((done) => socket.once('close', () => done())));
    }
    return frame(200, { result: ALICE });
  });
  const connection = await (await TlsKeyServer.start(pinned(url), random)).connect(new Secret('tok'));
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  // Once the call has its answer, the daemon sends one nobody asked for.
  sockets[0]!.write(frame(200, { result: BOB }));
  const ended = await Promise.race([closed[0]!.then(() => true), new Promise<boolean>((late) => setTimeout(() => late(false), 2_000))]);
  t.true(ended, 'the connection that carried an unasked answer is closed');
  t.deepEqual(await connection.call('whoami', {}), ALICE);
  await connection.close();
  t.is(sockets.length, 2);
});
