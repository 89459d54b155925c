import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

test('GET /api/keys/{ttag}/acl answers the owner and the entries by principal name', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  const path = `/api/keys/${pathTtag(key.ttag)}/acl`;
  t.like((await alice.get(path)).body, { items: [], complete: true, owner: { user: 'alice' } });
  await alice.put(`${path}/bob`, { rights: ['decrypt', 'read'] });
  await alice.put(`${path}/ops`, { rights: ['mac'] });
  const reply = await alice.get(path);
  t.is(reply.status, 200);
  t.deepEqual(reply.body.items, [
    { principal: 'bob', rights: ['read', 'decrypt'] },
    { principal: 'ops', rights: ['mac'] },
  ]);
  t.regex(reply.body.owner.principalId, /^[0-9a-f]{16}$/);
});

test('GET /api/keys/{ttag}/acl is 403 ACL_DENIED for anyone but the owner, grantees included', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  await alice.put(`/api/keys/${pathTtag(key.ttag)}/acl/bob`, { rights: ['read'] });
  const reply = await bob.get(`/api/keys/${pathTtag(key.ttag)}/acl`);
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ACL_DENIED');
});

test('PUT /api/keys/{ttag}/acl/{principal} answers the entry; a second PUT replaces the rights', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  const path = `/api/keys/${pathTtag(key.ttag)}/acl/bob`;
  const first = await alice.put(path, { rights: ['read', 'export'] });
  t.is(first.status, 200);
  t.deepEqual(first.body, { principal: 'bob', rights: ['read', 'export'] });
  const second = await alice.put(path, { rights: ['encrypt'] });
  t.deepEqual(second.body, { principal: 'bob', rights: ['encrypt'] });
  t.deepEqual((await alice.get(`/api/keys/${pathTtag(key.ttag)}/acl`)).body.items, [{ principal: 'bob', rights: ['encrypt'] }]);
});

test('PUT /api/keys/{ttag}/acl/{principal} refuses a non-owner (403), an unknown principal (404) and no rights (400)', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  const base = `/api/keys/${pathTtag(key.ttag)}/acl`;
  const denied = await bob.put(`${base}/bob`, { rights: ['export'] });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ACL_DENIED');
  t.is((await alice.put(`${base}/nobody`, { rights: ['read'] })).status, 404);
  for (const body of [{ rights: [] }, { rights: ['forge'] }, {}])
    t.is((await alice.put(`${base}/bob`, body)).status, 400, JSON.stringify(body));
});

test('DELETE /api/keys/{ttag}/acl/{principal} answers 204 and the entry is gone', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  const base = `/api/keys/${pathTtag(key.ttag)}`;
  await alice.put(`${base}/acl/bob`, { rights: ['read'] });
  t.is((await bob.get(base)).status, 200);
  const reply = await alice.del(`${base}/acl/bob`);
  t.is(reply.status, 204);
  t.is(reply.text, '');
  t.deepEqual((await alice.get(`${base}/acl`)).body.items, []);
  t.is((await bob.get(base)).status, 403);
});

test('DELETE /api/keys/{ttag}/acl/{principal} is 403 ACL_DENIED for a non-owner', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  await alice.put(`/api/keys/${pathTtag(key.ttag)}/acl/bob`, { rights: ['read'] });
  const reply = await bob.del(`/api/keys/${pathTtag(key.ttag)}/acl/bob`);
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ACL_DENIED');
});

test('GET /api/keys/{ttag}/access answers the effective rights: ownership, own entry, none', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const carol = await signIn(gw, 'carol');
  const key = await createKey(alice);
  const base = `/api/keys/${pathTtag(key.ttag)}`;
  await alice.put(`${base}/acl/bob`, { rights: ['mac', 'read'] });
  t.deepEqual((await alice.get(`${base}/access`)).body, {
    rights: ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign'],
  });
  t.deepEqual((await bob.get(`${base}/access`)).body, { rights: ['read', 'mac'] });
  const none = await carol.get(`${base}/access`);
  t.is(none.status, 200);
  t.deepEqual(none.body, { rights: [] });
});

test('the seven-operation grant and revoke change the same ACL that /api reads', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  const headers = { 'X-Session': alice.sessionId };
  t.is((await gw.call('POST', '/keys/grant', { headers, body: { ttag: key.ttag, grantee: 'bob' } })).status, 200);
  t.deepEqual((await alice.get(`/api/keys/${pathTtag(key.ttag)}/acl`)).body.items, [{ principal: 'bob', rights: ['read', 'export'] }]);
  t.is((await gw.call('POST', '/keys/revoke', { headers, body: { ttag: key.ttag, grantee: 'bob' } })).status, 200);
  t.deepEqual((await alice.get(`/api/keys/${pathTtag(key.ttag)}/acl`)).body.items, []);
});
