import { readFileSync } from 'node:fs';
import test from 'ava';
import { signIn } from '../_support/api-client.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('GET /api/server/version answers the key-server, gateway and API versions', async (t) => {
  const gw = await startGateway(t);
  const reply = await (await signIn(gw, 'alice')).get('/api/server/version');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { keyServer: packageVersion, gateway: packageVersion, api: '8.1.0' });
});

test('GET /api/server/version needs a session: 401 SESSION_REQUIRED without one', async (t) => {
  const gw = await startGateway(t);
  const reply = await gw.call('GET', '/api/server/version');
  t.is(reply.status, 401);
  t.is(reply.body.code, 'SESSION_REQUIRED');
});

test('GET /api/server/config answers the key-server configuration with secrets redacted', async (t) => {
  const gw = await startGateway(t);
  const reply = await (await signIn(gw, 'audra')).get('/api/server/config');
  t.is(reply.status, 200);
  t.like(reply.body, { mode: 'embedded', store: 'memory', adminPassword: '[redacted]', version: packageVersion });
  for (const password of Object.values(PASSWORDS)) t.false(reply.text.includes(password));
});

test('GET /api/server/parameters lists name, value, type and description of each parameter', async (t) => {
  const gw = await startGateway(t);
  const reply = await (await signIn(gw, 'admin')).get('/api/server/parameters');
  t.is(reply.status, 200);
  t.is(reply.body.complete, true);
  t.deepEqual(
    reply.body.items.map((p: { name: string }) => p.name),
    ['tokenTtlSeconds', 'loginHandshakeSeconds', 'maxPendingLogins'],
  );
  for (const item of reply.body.items) {
    t.deepEqual(Object.keys(item).sort(), ['description', 'name', 'type', 'value']);
    t.is(item.type, 'integer');
    t.true(Number.isInteger(item.value));
  }
  t.like(reply.body.items[0], { name: 'tokenTtlSeconds', value: 0 });
});

test('PUT /api/server/parameters/{name} sets the value, and it takes effect on the next token', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const reply = await admin.put('/api/server/parameters/tokenTtlSeconds', { value: 120 });
  t.is(reply.status, 200);
  t.like(reply.body, { name: 'tokenTtlSeconds', value: 120, type: 'integer' });
  const alice = await signIn(gw, 'alice');
  t.is((await alice.post('/api/keys', {})).status, 201);
  gw.clock.advance(120_000);
  const expired = await alice.post('/api/keys', {});
  t.is(expired.status, 401);
  t.like(expired.body, { code: 'SESSION_EXPIRED', reauth: true });
});

test('PUT /api/server/parameters/{name}: unknown name 404, wrong type or range 400, a user 403', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const unknown = await admin.put('/api/server/parameters/coffee', { value: 1 });
  t.is(unknown.status, 404);
  t.is(unknown.body.code, 'NOT_FOUND');
  for (const value of ['60', 1.5, -1, true, 10_000_000_000]) {
    const bad = await admin.put('/api/server/parameters/tokenTtlSeconds', { value });
    t.is(bad.status, 400, JSON.stringify(value));
    t.is(bad.body.code, 'BAD_REQUEST');
  }
  const denied = await (await signIn(gw, 'audra')).put('/api/server/parameters/tokenTtlSeconds', { value: 60 });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
});
