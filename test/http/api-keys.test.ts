import test from 'ava';
import { asSession, createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway } from '../_support/gateway.js';

test('POST /api/keys creates a 16-byte key by default and answers the key view, never material', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const reply = await alice.post('/api/keys', {});
  t.is(reply.status, 201);
  t.deepEqual(Object.keys(reply.body).sort(), [
    'algo',
    'createdAt',
    'keyLen',
    'minVersion',
    'owner',
    'state',
    'tags',
    'ttag',
    'type',
    'version',
    'versions',
  ]);
  t.like(reply.body, { type: 'aes', keyLen: 16, algo: 'aes-128-cbc', state: 'active', owner: { user: 'alice' }, tags: {} });
  t.true(Buffer.from(reply.body.ttag, 'base64').length >= 16);
  const client = clientKeyPair();
  const exported = await alice.post(`/api/keys/${pathTtag(reply.body.ttag)}/export`, { clientPubKey: client.publicKey });
  const material = client.unwrap(exported.body.wrapped);
  for (const encoding of ['base64', 'base64url', 'hex'] as const) t.false(reply.text.includes(material.toString(encoding)));
  const noBody = await alice.post('/api/keys');
  t.is(noBody.status, 201, 'an empty body is a default key');
  t.is(noBody.body.keyLen, 16);
});

test('POST /api/keys takes a length, a label and an expiry; a bad one is 400', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const expiresAt = new Date(gw.clock.now() + 3_600_000).toISOString();
  const reply = await alice.post('/api/keys', { keyLen: 32, label: 'invoices', expiresAt });
  t.is(reply.status, 201);
  t.like(reply.body, { keyLen: 32, label: 'invoices', expiresAt });
  for (const body of [
    { keyLen: 20 },
    { label: '' },
    { expiresAt: 'tomorrow' },
    { expiresAt: new Date(gw.clock.now() - 1000).toISOString() },
    { owner: 'bob' },
  ]) {
    const bad = await alice.post('/api/keys', body);
    t.is(bad.status, 400, JSON.stringify(body));
    t.is(bad.body.code, 'BAD_REQUEST');
  }
});

test('GET /api/keys/{ttag} answers the view for base64url and percent-encoded standard base64', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  let key = await createKey(alice, { label: 'k' });
  // A handle with '/' and '+' proves that %2F and %2B in the path are read as standard base64.
  while (!/[/]/.test(key.ttag) || !/[+]/.test(key.ttag)) key = await createKey(alice, { label: 'k' });
  for (const path of [pathTtag(key.ttag), encodeURIComponent(key.ttag)]) {
    const reply = await alice.get(`/api/keys/${path}`);
    t.is(reply.status, 200, path);
    t.deepEqual(reply.body, key);
  }
  t.is((await alice.get('/api/keys/not*base64')).status, 400);
});

test('GET /api/keys/{ttag} is 403 ACL_DENIED without read, 404 for an unknown key', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  const denied = await bob.get(`/api/keys/${pathTtag(key.ttag)}`);
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ACL_DENIED');
  const unknown = await alice.get(`/api/keys/${Buffer.alloc(24, 1).toString('base64url')}`);
  t.is(unknown.status, 404);
  t.is(unknown.body.code, 'NOT_FOUND');
});

test('a key created on /api exports the same bytes on /api and through POST /keys/export', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice, { keyLen: 24 });
  const viaApi = clientKeyPair();
  const api = await alice.post(`/api/keys/${pathTtag(key.ttag)}/export`, { clientPubKey: viaApi.publicKey });
  t.is(api.status, 200);
  t.deepEqual(Object.keys(api.body).sort(), ['algo', 'keyLen', 'version', 'wrapped']);
  t.like(api.body, { algo: 'aes-128-cbc', keyLen: 24 });
  const viaRoot = clientKeyPair();
  const root = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': alice.sessionId },
    body: { ttag: key.ttag, clientPubKey: viaRoot.publicKey },
  });
  t.deepEqual(viaApi.unwrap(api.body.wrapped), viaRoot.unwrap(root.body.wrapped));
});

test('POST /api/keys/{ttag}/export is 403 ACL_DENIED without export, 400 for a bad client key', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  await alice.put(`/api/keys/${pathTtag(key.ttag)}/acl/bob`, { rights: ['read'] });
  const denied = await bob.post(`/api/keys/${pathTtag(key.ttag)}/export`, { clientPubKey: clientKeyPair().publicKey });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ACL_DENIED');
  const bad = await alice.post(`/api/keys/${pathTtag(key.ttag)}/export`, { clientPubKey: Buffer.alloc(65, 4).toString('base64') });
  t.is(bad.status, 400);
});

test('POST /api/keys/{ttag}/expire expires the key: export and cryptography then answer 409 KEY_EXPIRED', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const key = await createKey(alice);
  const reply = await alice.post(`/api/keys/${pathTtag(key.ttag)}/expire`);
  t.is(reply.status, 200);
  t.is(reply.body.state, 'expired');
  t.is((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).body.state, 'expired');
  const exported = await alice.post(`/api/keys/${pathTtag(key.ttag)}/export`, { clientPubKey: clientKeyPair().publicKey });
  t.is(exported.status, 409);
  t.is(exported.body.code, 'KEY_EXPIRED');
  const encrypted = await alice.post('/api/crypto/encrypt', { ttag: key.ttag, plaintext: 'aGVsbG8=' });
  t.is(encrypted.status, 409);
  t.is(encrypted.body.code, 'KEY_EXPIRED');
});

test('only the owner expires a key: a grantee gets 403 ACL_DENIED', async (t) => {
  const gw = await startGateway(t);
  const alice = await signIn(gw, 'alice');
  const bob = await signIn(gw, 'bob');
  const key = await createKey(alice);
  await alice.put(`/api/keys/${pathTtag(key.ttag)}/acl/bob`, { rights: ['read', 'export'] });
  const reply = await bob.post(`/api/keys/${pathTtag(key.ttag)}/expire`);
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ACL_DENIED');
  t.is((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).body.state, 'active');
});

test('a key whose expiresAt passes shows state expired and refuses export', async (t) => {
  const gw = await startGateway(t);
  const alice = asSession(gw, await gw.login('alice'));
  const key = await createKey(alice, { expiresAt: new Date(gw.clock.now() + 60_000).toISOString() });
  gw.clock.advance(60_000);
  t.is((await alice.get(`/api/keys/${pathTtag(key.ttag)}`)).body.state, 'expired');
  const exported = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': alice.sessionId },
    body: { ttag: key.ttag, clientPubKey: clientKeyPair().publicKey },
  });
  t.is(exported.status, 403, 'the seven-operation surface refuses it as a denial');
});
