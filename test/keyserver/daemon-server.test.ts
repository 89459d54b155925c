import { connect } from 'node:tls';
import test from 'ava';
import { type KeyServerDaemon, startKeyServerDaemon } from '../../src/keyserver/daemon/daemon-server.js';
import { certificateFingerprint } from '../../src/keyserver/identity/identity-certificate.js';
import { REQUEST_BODY_LIMIT_BYTES } from '../../src/keyserver/protocol/keyserver-protocol.js';
import { openFramed } from '../_support/framed-call.js';
import { type HttpsReply, httpsCall } from '../_support/https-call.js';
import { daemonFixtures, testClient } from '../_support/keyserver-daemon.js';

const client = await testClient();
const fixtures = await daemonFixtures({ principals: [{ name: 'alice', kind: 'user', password: 'alice-pw' }] });
const failures: string[] = [];
const daemon: KeyServerDaemon = await startKeyServerDaemon(
  {
    host: '127.0.0.1',
    port: 0,
    dataPath: ':memory:',
    identity: fixtures,
    seed: { principals: [{ name: 'alice', kind: 'user', password: 'alice-pw' }] },
    clientTrust: { cas: [], fingerprints: [client.fingerprint] },
  },
  (line) => failures.push(line),
);
test.after('no request failed as a bug (nothing was logged)', (t) => t.deepEqual(failures, []));
test.after.always(() => daemon.close());

const call = (method: string, path: string, options: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {}) =>
  httpsCall(daemon.url, method, path, { ...options, ca: fixtures.certPem, cert: client.certPem, key: client.keyPem });

/** Every error answer is exactly `{ code, detail }`: no stack, no cause. */
function assertError(t: import('ava').ExecutionContext, reply: HttpsReply, status: number, code: string): void {
  t.is(reply.status, status, reply.text);
  t.deepEqual(Object.keys(reply.body).sort(), ['code', 'detail']);
  t.is(reply.body.code, code);
  t.notRegex(reply.text, /\.ts:\d+|\n\s+at /);
}

test('GET /v1/health answers ok and the protocol version', async (t) => {
  const reply = await call('GET', '/v1/health');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { ok: true, protocol: 1 });
  t.is(reply.headers['cache-control'], 'no-store');
});

test('the fingerprint is the SHA-256 of the given certificate', (t) => {
  t.is(daemon.fingerprint, certificateFingerprint(fixtures.certPem));
  t.regex(daemon.url, /^https:\/\/127\.0\.0\.1:\d+$/);
});

test('an unknown path is 404 and a known path with another method is 405 with Allow', async (t) => {
  assertError(t, await call('GET', '/v1/nope'), 404, 'NOT_FOUND');
  assertError(t, await call('GET', '/'), 404, 'NOT_FOUND');
  const wrongMethod = await call('POST', '/v1/health');
  assertError(t, wrongMethod, 405, 'METHOD_NOT_ALLOWED');
  t.is(wrongMethod.headers.allow, 'GET');
  assertError(t, await call('GET', '/v1/op/whoami'), 405, 'METHOD_NOT_ALLOWED');
});

test('an unknown operation is 404, and an operation without a bearer token is 401', async (t) => {
  assertError(t, await call('POST', '/v1/op/deleteEverything', { body: {}, headers: { authorization: 'Bearer abc' } }), 404, 'NOT_FOUND');
  assertError(t, await call('POST', '/v1/op/toString', { body: {}, headers: { authorization: 'Bearer abc' } }), 404, 'NOT_FOUND');
  assertError(t, await call('POST', '/v1/op/whoami', { body: {} }), 401, 'SESSION_REQUIRED');
  assertError(t, await call('POST', '/v1/op/whoami', { body: {}, headers: { authorization: 'Basic abc' } }), 401, 'SESSION_REQUIRED');
  assertError(
    t,
    await call('POST', '/v1/op/whoami', { body: {}, headers: { authorization: 'Bearer not-a-token' } }),
    401,
    'SESSION_EXPIRED',
  );
});

test('the gateway calls take no token (the trusted client certificate reached the daemon); every other operation still needs a bearer', async (t) => {
  const claimed = await call('POST', '/v1/op/claimKeyDestructions', { body: {} });
  t.is(claimed.status, 200, claimed.text);
  t.deepEqual(claimed.body, { result: { items: [] } });
  const confirmed = await call('POST', '/v1/op/confirmKeyDestruction', { body: { ttag: 'AAAA' } });
  t.is(confirmed.status, 200, confirmed.text);
  t.deepEqual(confirmed.body, { result: null });
  assertError(t, await call('POST', '/v1/op/readKey', { body: { ttag: 'AAAA' } }), 401, 'SESSION_REQUIRED');
  assertError(t, await call('POST', '/v1/op/scheduleKeyDeletion', { body: { ttag: 'AAAA' } }), 401, 'SESSION_REQUIRED');
});

test('text off the text rule (a NUL, a lone surrogate, a control) is refused before the engine with 400 naming the argument', async (t) => {
  const auth = { authorization: 'Bearer abc' };
  const refusals: [string, string, Record<string, unknown>, RegExp][] = [
    ['/v1/op/generateKey', 'a NUL in a label', { keyLen: 16, label: 'a\u0000b' }, /^args\.label: a control character U\+0000/],
    [
      '/v1/op/createPrincipal',
      'a NUL in a display name',
      { name: 'dora', kind: 'user', displayName: 'Dora\u0000' },
      /^args\.displayName: /,
    ],
    [
      '/v1/op/updatePrincipal',
      'a lone surrogate in a display name',
      { name: 'alice', changes: { displayName: 'A\ud800' } },
      /^args\.changes\.displayName: not well-formed Unicode/,
    ],
    ['/v1/op/readPrincipal', 'an escape in a name', { name: 'alice\u001b' }, /^args\.name: /],
    ['/v1/op/putRole', 'DEL in an operation id', { name: 'r', operations: ['keys.read\u007f'] }, /^args\.operations\.0: /],
    ['/v1/op/setPolicy', 'a NUL inside a policy value', { name: 'defaultRoles', value: ['user\u0000'] }, /^args\.value\.0: /],
    ['/v1/login/begin', 'a lone surrogate in a user name', { user: 'bob\udc00', A: 'AAAA' }, /^body\.user: not well-formed Unicode/],
  ];
  for (const [path, what, body, detail] of refusals) {
    const reply = await call('POST', path, { body, headers: auth });
    assertError(t, reply, 400, 'BAD_REQUEST');
    t.regex(reply.body.detail, detail, what);
  }
  // A PEM keeps its line breaks: the rule refuses its other controls only.
  const pem = await call('POST', '/v1/op/parseCertificate', {
    body: { pem: '-----BEGIN CERTIFICATE-----\r\n\tAAAA\u0000\n' },
    headers: auth,
  });
  assertError(t, pem, 400, 'BAD_REQUEST');
  t.regex(pem.body.detail, /^args\.pem: a control character U\+0000 at index 34/);
});

test('bad JSON, arguments off the schema and unknown fields are 400 naming the field', async (t) => {
  const auth = { authorization: 'Bearer abc' };
  const badJson = await call('POST', '/v1/op/whoami', { raw: '{"', headers: { ...auth, 'content-type': 'application/json' } });
  assertError(t, badJson, 400, 'BAD_REQUEST');
  t.regex(badJson.body.detail, /invalid JSON/);
  const keyLen = await call('POST', '/v1/op/generateKey', { body: { keyLen: 20 }, headers: auth });
  assertError(t, keyLen, 400, 'BAD_REQUEST');
  t.regex(keyLen.body.detail, /^args\.keyLen:/);
  assertError(t, await call('POST', '/v1/op/whoami', { body: { extra: 1 }, headers: auth }), 400, 'BAD_REQUEST');
  const A = await call('POST', '/v1/login/begin', { body: { user: 'alice', A: 'not base64!' } });
  assertError(t, A, 400, 'BAD_REQUEST');
  t.regex(A.body.detail, /^body\.A:/);
});

test('a body over 2 MiB is refused with 413', async (t) => {
  const reply = await call('POST', '/v1/login/begin', {
    raw: Buffer.alloc(REQUEST_BODY_LIMIT_BYTES + 1, 0x20),
    headers: { 'content-type': 'application/json' },
  });
  assertError(t, reply, 413, 'BAD_REQUEST');
});

const framed = () => openFramed(daemon.url, { ca: fixtures.certPem, cert: client.certPem, key: client.keyPem });
const frame = (request: unknown) => `${JSON.stringify(request)}\n`;

test('a connection that offers the framed transport gets it: one JSON line per call, answered in order on one connection', async (t) => {
  const connection = await framed();
  t.teardown(() => connection.close());
  t.is(connection.protocol, 'keygate/1');
  // Three calls in one write: each is answered, in order.
  connection.send(
    frame({ method: 'GET', path: '/v1/health' }) +
      frame({ method: 'POST', path: '/v1/op/whoami', body: {} }) +
      frame({ method: 'POST', path: '/v1/login/begin', body: { user: 'alice', A: Buffer.alloc(256, 2).toString('base64') } }),
  );
  t.deepEqual(await connection.answer(), { status: 200, body: { ok: true, protocol: 1 } });
  t.deepEqual(await connection.answer(), {
    status: 401,
    body: { code: 'SESSION_REQUIRED', detail: 'an Authorization: Bearer token is required' },
  });
  const begun = await connection.answer();
  t.is(begun.status, 200);
  t.deepEqual(Object.keys(begun.body).sort(), ['B', 'handle', 'salt']);
  // A call split across writes is read whole.
  const split = frame({ method: 'POST', path: '/v1/op/whoami', authorization: 'Bearer not-a-token', body: {} });
  connection.send(split.slice(0, 10));
  connection.send(split.slice(10));
  t.is((await connection.answer()).body.code, 'SESSION_EXPIRED');
});

test('on the framed transport a bad frame is 400 BAD_REQUEST and the connection stays usable; errors are those of HTTP/1.1', async (t) => {
  const connection = await framed();
  t.teardown(() => connection.close());
  const errors: [string, number, string][] = [
    ['{"', 400, 'BAD_REQUEST'],
    [frame({ method: 'GET' }).trim(), 400, 'BAD_REQUEST'],
    [frame({ method: 'GET', path: '/v1/health', extra: 1 }).trim(), 400, 'BAD_REQUEST'],
    [frame({ method: 'GET', path: '/v1/nope' }).trim(), 404, 'NOT_FOUND'],
    [frame({ method: 'POST', path: '/v1/health' }).trim(), 405, 'METHOD_NOT_ALLOWED'],
    [frame({ method: 'POST', path: '/v1/op/whoami', authorization: 'Bearer abc', body: { extra: 1 } }).trim(), 400, 'BAD_REQUEST'],
  ];
  for (const [line, status, code] of errors) {
    connection.send(`${line}\n`);
    const answer = await connection.answer();
    t.is(answer.status, status, line);
    t.deepEqual(Object.keys(answer.body).sort(), ['code', 'detail'], line);
    t.is(answer.body.code, code, line);
    t.notRegex(JSON.stringify(answer), /\.ts:\d+|\n\s+at /);
  }
  connection.send(frame({ method: 'GET', path: '/v1/health' }));
  t.is((await connection.answer()).status, 200);
});

test('on the framed transport a frame over 2 MiB is refused with 413 and the connection closed', async (t) => {
  const connection = await framed();
  t.teardown(() => connection.close());
  connection.send(frame({ method: 'GET', path: '/v1/health' }));
  connection.send(`{"method":"POST","path":"/v1/login/begin","body":"${'a'.repeat(REQUEST_BODY_LIMIT_BYTES)}"}\n`);
  t.is((await connection.answer()).status, 200, 'the call before it is answered');
  const refused = await connection.answer();
  t.is(refused.status, 413);
  t.is(refused.body.code, 'BAD_REQUEST');
  await connection.closed;
  t.is(await connection.answer(), undefined);
});

test('finishing a login that was never begun is WRONG_CREDENTIAL', async (t) => {
  const reply = await call('POST', '/v1/login/finish', { body: { handle: 'nope', M1: Buffer.alloc(32).toString('base64') } });
  assertError(t, reply, 401, 'WRONG_CREDENTIAL');
});

test('a TLS 1.2 client is refused', async (t) => {
  const port = Number(new URL(daemon.url).port);
  const error = await new Promise<Error>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, maxVersion: 'TLSv1.2', ca: fixtures.certPem });
    socket.once('secureConnect', () => (socket.destroy(), resolve(new Error('connected'))));
    socket.once('error', resolve);
  });
  t.not(error.message, 'connected');
});
