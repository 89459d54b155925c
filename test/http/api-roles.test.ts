import test from 'ava';
import { OPERATIONS } from '../../src/domain/roles/operations.js';
import { signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

test('GET /api/roles lists the built-in roles with their operations', async (t) => {
  const gw = await startGateway();
  const reply = await (await signIn(gw, 'audra')).get('/api/roles');
  t.is(reply.status, 200);
  t.is(reply.body.complete, true);
  t.deepEqual(
    reply.body.items.map((r: { name: string }) => r.name),
    ['admin', 'auditor', 'service', 'user'],
  );
  const admin = reply.body.items.find((r: { name: string }) => r.name === 'admin');
  t.deepEqual(admin.operations, [...OPERATIONS]);
  const service = reply.body.items.find((r: { name: string }) => r.name === 'service');
  t.true(service.operations.includes('session.delegate'));
  await gw.close();
});

test('GET /api/roles is 403 ROLE_DENIED for a user', async (t) => {
  const gw = await startGateway();
  const reply = await (await signIn(gw, 'alice')).get('/api/roles');
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ROLE_DENIED');
  await gw.close();
});

test('GET /api/roles/{role} answers one role; an unknown role is 404', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const user = await admin.get('/api/roles/user');
  t.is(user.status, 200);
  t.is(user.body.name, 'user');
  t.true(user.body.operations.includes('keys.create'));
  t.false(user.body.operations.includes('principals.create'));
  const unknown = await admin.get('/api/roles/wizard');
  t.is(unknown.status, 404);
  t.is(unknown.body.code, 'NOT_FOUND');
  await gw.close();
});

test('PUT /api/roles/{role} defines a role that principals can then hold', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const reply = await admin.put('/api/roles/directory-reader', { operations: ['principals.read', 'principals.list', 'principals.list'] });
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { name: 'directory-reader', operations: ['principals.list', 'principals.read'] });
  t.deepEqual((await admin.get('/api/roles/directory-reader')).body, reply.body);
  await admin.put('/api/principals/bob', { roles: ['user', 'directory-reader'] });
  t.is((await (await signIn(gw, 'bob')).get('/api/principals/alice')).status, 200);
  await gw.close();
});

test('PUT /api/roles/{role} redefines a built-in role, and the change takes effect', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const user = (await admin.get('/api/roles/user')).body.operations as string[];
  await admin.put('/api/roles/user', { operations: user.filter((op) => op !== 'keys.create') });
  const denied = await (await signIn(gw, 'alice')).post('/api/keys', {});
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
  await gw.close();
});

test('PUT /api/roles/{role} refuses an unknown operation id and the admin role with 400', async (t) => {
  const gw = await startGateway();
  const admin = await signIn(gw, 'admin');
  const unknown = await admin.put('/api/roles/reader', { operations: ['keys.read', 'keys.steal'] });
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /keys\.steal/);
  t.is((await admin.get('/api/roles/reader')).status, 404);
  t.is((await admin.put('/api/roles/admin', { operations: [] })).status, 400);
  t.is((await admin.put('/api/roles/bad%20name', { operations: [] })).status, 400);
  await gw.close();
});

test('PUT /api/roles/{role} is 403 ROLE_DENIED for a user and for an auditor', async (t) => {
  const gw = await startGateway();
  for (const user of ['alice', 'audra'] as const) {
    const reply = await (await signIn(gw, user)).put('/api/roles/user', { operations: [] });
    t.is(reply.status, 403);
    t.is(reply.body.code, 'ROLE_DENIED');
  }
  await gw.close();
});
