import { request } from 'node:http';
import test from 'ava';
import { clientKeyPair } from '../_support/client-key.js';
import { startFaultyGateway, startGateway, type TestGateway } from '../_support/gateway.js';

async function generate(gw: TestGateway, session: string): Promise<string> {
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} });
  if (reply.status !== 200) throw new Error(`generate: ${reply.status} ${reply.text}`);
  return reply.body.ttag as string;
}

async function exportKey(gw: TestGateway, session: string, ttag: string) {
  const client = clientKeyPair();
  const reply = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session },
    body: { ttag, clientPubKey: client.publicKey },
  });
  return { reply, key: reply.status === 200 ? client.unwrap(reply.body.wrapped) : undefined };
}

test('POST /keys answers a base64 ttag of at least 16 bytes, with or without an empty body', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  for (const options of [{ body: {} }, {}]) {
    const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, ...options });
    t.is(reply.status, 200);
    t.deepEqual(Object.keys(reply.body), ['ttag']);
    t.regex(reply.body.ttag, /^[A-Za-z0-9+/]+={0,2}$/);
    t.true(Buffer.from(reply.body.ttag, 'base64').length >= 16);
  }
  const bad = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: { keyLen: 32 } });
  t.is(bad.status, 400);
});

test('POST /keys/export wraps the key so that only the client can open it', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const ttag = await generate(gw, session);
  const { reply, key } = await exportKey(gw, session, ttag);
  t.is(reply.status, 200);
  t.deepEqual(Object.keys(reply.body).sort(), ['algo', 'keyLen', 'wrapped']);
  t.deepEqual(Object.keys(reply.body.wrapped).sort(), ['authTag', 'ciphertext', 'gatewayPubKey', 'iv', 'salt']);
  t.is(reply.body.algo, 'aes-128-cbc');
  t.is(reply.body.keyLen, 16);
  t.is(Buffer.from(reply.body.wrapped.salt, 'base64').length, 16);
  t.is(key!.length, 16);
  t.false(reply.text.includes(key!.toString('base64')));
});

test('two exports of one key give the same key in different envelopes', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const ttag = await generate(gw, session);
  const first = await exportKey(gw, session, ttag);
  const second = await exportKey(gw, session, ttag);
  t.deepEqual(first.key, second.key);
  t.not(first.reply.body.wrapped.gatewayPubKey, second.reply.body.wrapped.gatewayPubKey);
  t.not(first.reply.body.wrapped.ciphertext, second.reply.body.wrapped.ciphertext);
});

test('grant lets the grantee export the same key; revoke takes it away', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const ttag = await generate(gw, alice);
  const denied = await exportKey(gw, bob, ttag);
  t.is(denied.reply.status, 403);
  t.is(denied.reply.body.error, 'export denied or failed');
  t.is(typeof denied.reply.body.detail, 'string');

  const grant = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  t.is(grant.status, 200);
  t.is(grant.body.ok, true);
  t.is(grant.body.grantee.user, 'bob');
  t.true(Number.isInteger(grant.body.grantee.systemId));
  t.regex(grant.body.grantee.principalId, /^[0-9a-f]{16}$/);

  const owner = await exportKey(gw, alice, ttag);
  const grantee = await exportKey(gw, bob, ttag);
  t.is(grantee.reply.status, 200);
  t.deepEqual(grantee.key, owner.key);

  const revoke = await gw.call('POST', '/keys/revoke', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  t.is(revoke.status, 200);
  t.deepEqual(revoke.body, { ok: true });
  t.is((await exportKey(gw, bob, ttag)).reply.status, 403);
});

test('only the owner may grant or revoke: others get 403 "<op> denied or failed"', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const ttag = await generate(gw, alice);
  await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  const grant = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': bob }, body: { ttag, grantee: 'carol' } });
  t.is(grant.status, 403);
  t.is(grant.body.error, 'grant denied or failed');
  const revoke = await gw.call('POST', '/keys/revoke', { headers: { 'X-Session': bob }, body: { ttag, grantee: 'bob' } });
  t.is(revoke.status, 403);
  t.is(revoke.body.error, 'revoke denied or failed');
});

test('export of an unknown ttag and a grant to an unknown user are refused, never 2xx', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const unknown = Buffer.alloc(24, 3).toString('base64');
  const exported = await exportKey(gw, alice, unknown);
  t.is(exported.reply.status, 403);
  t.is(typeof exported.reply.body.error, 'string');
  const ttag = await generate(gw, alice);
  const grant = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'nobody' } });
  t.is(grant.status, 403);
  t.is(typeof grant.body.error, 'string');
});

const badExports: [string, (ttag: string, pub: string) => unknown][] = [
  ['a missing ttag', (_ttag, pub) => ({ clientPubKey: pub })],
  ['a missing clientPubKey', (ttag) => ({ ttag })],
  ['a ttag that is not base64', (_ttag, pub) => ({ ttag: '***', clientPubKey: pub })],
  ['a ttag too short to be a handle', (_ttag, pub) => ({ ttag: 'AAAA', clientPubKey: pub })],
  ['a clientPubKey of 64 bytes', (ttag) => ({ ttag, clientPubKey: Buffer.alloc(64, 4).toString('base64') })],
  [
    'a clientPubKey off the curve',
    (ttag) => ({ ttag, clientPubKey: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64') }),
  ],
  ['a numeric clientPubKey', (ttag) => ({ ttag, clientPubKey: 65 })],
];
for (const [name, body] of badExports) {
  test(`POST /keys/export answers 400 for ${name}`, async (t) => {
    const gw = await startGateway(t);
    const alice = await gw.login('alice');
    const ttag = await generate(gw, alice);
    const reply = await gw.call('POST', '/keys/export', { headers: { 'X-Session': alice }, body: body(ttag, clientKeyPair().publicKey) });
    t.is(reply.status, 400);
    t.is(typeof reply.body.error, 'string');
  });
}

test('grant and revoke answer 400 for a missing grantee or ttag', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const ttag = await generate(gw, alice);
  for (const path of ['/keys/grant', '/keys/revoke']) {
    for (const body of [{ ttag }, { grantee: 'bob' }, { ttag, grantee: 7 }]) {
      t.is((await gw.call('POST', path, { headers: { 'X-Session': alice }, body })).status, 400, path);
    }
  }
});

test('a grant the key server drops answers 500, and so does a revoke it ignores', async (t) => {
  const gw = await startFaultyGateway(t);
  const alice = await gw.login('alice');
  const ttag = await generate(gw, alice);
  gw.faults.dropGrants = true;
  const dropped = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  t.is(dropped.status, 500);
  t.regex(dropped.body.error, /grant/);
  gw.faults.dropGrants = false;
  t.is((await gw.call('POST', '/keys/grant', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } })).status, 200);
  gw.faults.dropRevokes = true;
  const ignored = await gw.call('POST', '/keys/revoke', { headers: { 'X-Session': alice }, body: { ttag, grantee: 'bob' } });
  t.is(ignored.status, 500);
});

test('another key-server failure answers 500 with the key server detail', async (t) => {
  const gw = await startFaultyGateway(t);
  const alice = await gw.login('alice');
  gw.faults.failOperations = true;
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
  t.is(reply.status, 500);
  t.is(typeof reply.body.error, 'string');
});

test('an unexpected exception answers 500 with a request id, never a stack or internal text', async (t) => {
  const gw = await startFaultyGateway(t);
  const alice = await gw.login('alice');
  gw.faults.crashOnGenerate = true;
  const reply = await gw.call('POST', '/keys', { headers: { 'X-Session': alice } });
  t.is(reply.status, 500);
  t.is(reply.body.error, 'internal error');
  t.true(reply.body.detail.includes(reply.headers.get('x-request-id')!));
  t.false(reply.text.includes('/srv/keygate'));
  t.false(reply.text.includes('TypeError'));
  t.true(gw.logger.lines.some((line) => line.level === 'error' && JSON.stringify(line.fields).includes('/srv/keygate')));
});

test('every other method and path answers 404 "no route <METHOD> <path>"', async (t) => {
  const gw = await startGateway(t);
  for (const [method, path] of [
    ['GET', '/login'],
    ['PUT', '/keys'],
    ['DELETE', '/keys/export'],
    ['POST', '/health'],
    ['GET', '/nope'],
    ['POST', '/keys/'],
    ['PATCH', '/logout'],
  ]) {
    const reply = await gw.call(method!, path!);
    t.is(reply.status, 404, `${method} ${path}`);
    t.deepEqual(reply.body, { error: `no route ${method} ${path}` });
  }
});

test('a body over 1 MB answers 400, declared or streamed', async (t) => {
  const gw = await startGateway(t);
  const big = JSON.stringify({ user: 'alice', password: 'x'.repeat(1024 * 1024) });
  const declared = await gw.call('POST', '/login', { raw: big, headers: { 'content-type': 'application/json' } });
  t.is(declared.status, 400);
  t.regex(declared.body.error, /larger than/);
  const streamed = await new Promise<{ status: number; body: string }>((done, fail) => {
    const req = request(
      `${gw.url}/login`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => done({ status: res.statusCode!, body }));
      },
    );
    req.on('error', fail);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 2 * 1024 * 1024) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
  t.is(streamed.status, 400);
  const exact = await gw.call('POST', '/login', {
    raw: JSON.stringify({ user: 'alice', password: 'x'.repeat(1024 * 1024 - 40) }),
    headers: { 'content-type': 'application/json' },
  });
  t.is(exact.status, 400);
  t.regex(exact.body.error, /password/, 'a body just under the limit is read and judged on its fields');
});
