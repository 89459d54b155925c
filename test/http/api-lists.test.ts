import test, { type ExecutionContext } from 'ava';
import { type ApiSession, asSession, createKey, pathTtag } from '../_support/api-client.js';
import { createAuthority, createLeaf } from '../_support/certificates.js';
import { startFaultyGateway } from '../_support/gateway.js';

/** Every list route, after a setup that gives each at least two items. */
async function listed(t: ExecutionContext) {
  const gw = await startFaultyGateway(t);
  const admin = asSession(gw, await gw.login('admin'));
  const alice = asSession(gw, await gw.login('alice'));
  const authority = await createAuthority('keygate test CA');
  await admin.post('/api/trust/authorities', { pem: authority.pem });
  await admin.post('/api/trust/authorities', { pem: (await createAuthority('second CA')).pem });
  await admin.post('/api/trust/enrollments', { principal: 'carol', pem: (await createLeaf(authority, 'c')).pem });
  await admin.post('/api/principals', { name: 'team', kind: 'group' });
  for (const member of ['bob', 'carol']) await admin.put(`/api/groups/ops/members/${member}`);
  for (const group of ['ops', 'team']) await admin.put(`/api/groups/${group}/members/alice`);
  const key = await createKey(alice);
  await createKey(alice);
  const paths: [ApiSession, string][] = [
    [alice, '/api/keys'],
    [admin, '/api/principals'],
    [admin, '/api/principals/alice/groups'],
    [admin, '/api/groups'],
    [admin, '/api/groups/ops/members'],
    [admin, '/api/roles'],
    [admin, '/api/certificates'],
    [admin, '/api/trust/authorities'],
    [admin, '/api/server/parameters'],
  ];
  return { gw, admin, alice, paths, aclPath: `/api/keys/${pathTtag(key.ttag)}/acl` };
}

test('every list is read whole when nothing fails: complete, with at least two items', async (t) => {
  const { paths } = await listed(t);
  for (const [session, path] of paths) {
    const reply = await session.get(path);
    t.is(reply.status, 200, path);
    t.is(reply.body.complete, true, path);
    t.false('reason' in reply.body, path);
    t.true(reply.body.items.length >= 2, path);
  }
});

test('a list the key server cannot finish is 503 KEY_SERVER_UNAVAILABLE, never an empty or short list', async (t) => {
  const { gw, alice, paths, aclPath } = await listed(t);
  gw.faults.lists = 'unavailable';
  for (const [session, path] of [...paths, [alice, aclPath] as [ApiSession, string]]) {
    const reply = await session.get(path);
    t.is(reply.status, 503, path);
    t.like(reply.body, { code: 'KEY_SERVER_UNAVAILABLE', retryable: true, scope: 'process' }, path);
    t.false('items' in reply.body, path);
    t.regex(reply.headers.get('retry-after') ?? '', /^\d+$/, path);
  }
});

test('a list the key server read only in part is answered complete: false with the reason', async (t) => {
  const { gw, paths } = await listed(t);
  const whole = new Map<string, number>();
  for (const [session, path] of paths) whole.set(path, (await session.get(path)).body.items.length);
  gw.faults.lists = 'partial';
  for (const [session, path] of paths) {
    const reply = await session.get(path);
    t.is(reply.status, 200, path);
    t.is(reply.body.complete, false, path);
    t.is(reply.body.reason, 'the key server read only part of the list', path);
    t.true(reply.body.items.length < whole.get(path)!, path);
  }
});

test('a write whose read-back list was not read whole is not confirmed: 409 NOT_VERIFIED', async (t) => {
  const gw = await startFaultyGateway(t);
  const admin = asSession(gw, await gw.login('admin'));
  gw.faults.lists = 'partial';
  const trust = await admin.post('/api/trust/authorities', { pem: (await createAuthority('only CA')).pem });
  t.is(trust.status, 409);
  t.is(trust.body.code, 'NOT_VERIFIED');
  const member = await admin.put('/api/groups/ops/members/bob');
  t.is(member.status, 409);
  t.is(member.body.code, 'NOT_VERIFIED');
});
