import test from 'ava';
import { pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway } from '../_support/gateway.js';

test('the root export answers the newest version with exactly its three fields', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const generated = await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} });
  const ttag = generated.body.ttag as string;
  t.deepEqual(Object.keys(generated.body), ['ttag']);
  const alice = await signIn(gw, 'alice');
  t.like(await alice.post(`/api/keys/${pathTtag(ttag)}/rotate`), { status: 200, body: { version: 2 } });
  const client = clientKeyPair();
  const root = await gw.call('POST', '/keys/export', { headers: { 'X-Session': session }, body: { ttag, clientPubKey: client.publicKey } });
  t.is(root.status, 200, root.text);
  t.deepEqual(Object.keys(root.body).sort(), ['algo', 'keyLen', 'wrapped']);
  const newest = await alice.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version: 2 });
  const first = await alice.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: client.publicKey, version: 1 });
  t.deepEqual(client.unwrap(root.body.wrapped), client.unwrap(newest.body.wrapped));
  t.notDeepEqual(client.unwrap(root.body.wrapped), client.unwrap(first.body.wrapped));
});

test('the root grant gives exactly read and export, never rotate', async (t) => {
  const gw = await startGateway(t);
  const session = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': session }, body: {} })).body.ttag as string;
  const granted = await gw.call('POST', '/keys/grant', { headers: { 'X-Session': session }, body: { ttag, grantee: 'bob' } });
  t.is(granted.status, 200, granted.text);
  const asked = await gw.call('POST', '/keys/grant', {
    headers: { 'X-Session': session },
    body: { ttag, grantee: 'carol', rights: ['rotate'] },
  });
  t.is(asked.status, 400, 'the root grant takes no rights');
  const bob = await signIn(gw, 'bob');
  t.deepEqual((await bob.get(`/api/keys/${pathTtag(ttag)}/access`)).body.rights, ['read', 'export']);
  t.like(await bob.post(`/api/keys/${pathTtag(ttag)}/rotate`), { status: 403, body: { code: 'ACL_DENIED' } });
  const alice = await signIn(gw, 'alice');
  t.like(await alice.put(`/api/keys/${pathTtag(ttag)}/acl/bob`, { rights: ['read', 'rotate'] }), {
    status: 200,
    body: { rights: ['read', 'rotate'] },
  });
  t.like(await bob.post(`/api/keys/${pathTtag(ttag)}/rotate`), { status: 200, body: { version: 2 } });
  const owner = (await alice.get(`/api/keys/${pathTtag(ttag)}/access`)).body.rights as string[];
  t.true(owner.includes('rotate'), 'the owner holds rotate');
});
