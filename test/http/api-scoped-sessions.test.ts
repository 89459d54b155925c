import test from 'ava';
import { createKey, pathTtag, signIn } from '../_support/api-client.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * Alice's keys `listed` and `unlisted`, bob's key `foreign`, and a session scoped to `listed` with the
 * rights read, encrypt and mac only, bound to `signer` (every request carries its proof).
 */
async function scopedAlice(gw: TestGateway) {
  const signer = await makeSigner('ES256');
  const alice = await signIn(gw, 'alice');
  const listed = (await createKey(alice, { keyLen: 32 })).ttag;
  const unlisted = (await createKey(alice, { keyLen: 32 })).ttag;
  const foreign = (await createKey(await signIn(gw, 'bob'))).ttag;
  const minted = await alice.post('/api/session/scoped', {
    objects: [listed],
    rights: ['read', 'encrypt', 'mac'],
    senderKey: signer.publicJwk,
  });
  if (minted.status !== 201) throw new Error(`scoped session: ${minted.status} ${minted.text}`);
  const session = minted.body.sessionId as string;
  const as = (method: string, path: string, body?: unknown) => gw.bound(signer, method, path, { bearer: session }, body);
  return { alice, listed, unlisted, foreign, as };
}

test('a scoped session reads, encrypts and MACs under its listed key', async (t) => {
  const gw = await startGateway(t);
  const { listed, as } = await scopedAlice(gw);
  t.like(await as('GET', `/api/keys/${pathTtag(listed)}`), { status: 200, body: { ttag: listed } });
  t.like(await as('GET', `/api/keys/${pathTtag(listed)}/access`), { status: 200, body: { rights: ['read', 'encrypt', 'mac'] } });
  const sealed = await as('POST', '/api/crypto/encrypt', { ttag: listed, plaintext: b64('inside') });
  t.is(sealed.status, 200);
  t.is(sealed.body.alg, 'A256GCM');
  const mac = await as('POST', '/api/crypto/mac', { ttag: listed, data: b64('m') });
  t.is(mac.status, 200);
  t.like(await as('POST', '/api/crypto/mac/verify', { ttag: listed, data: b64('m'), mac: mac.body.mac }), {
    status: 200,
    body: { valid: true },
  });
});

test('a scoped session is 403 OUT_OF_SCOPE on key and crypto operations for a key it does not list', async (t) => {
  const gw = await startGateway(t);
  const { unlisted, as } = await scopedAlice(gw);
  const path = `/api/keys/${pathTtag(unlisted)}`;
  const refusals = [
    await as('GET', path),
    await as('GET', `${path}/access`),
    await as('POST', `${path}/export`, { clientPubKey: clientKeyPair().publicKey }),
    await as('POST', '/api/crypto/encrypt', { ttag: unlisted, plaintext: b64('outside') }),
    await as('POST', '/api/crypto/mac', { ttag: unlisted, data: b64('m') }),
  ];
  for (const reply of refusals) t.like(reply, { status: 403, body: { code: 'OUT_OF_SCOPE' } }, reply.text);
});

test('a scoped session is 403 OUT_OF_SCOPE for rights it was not given on its own key', async (t) => {
  const gw = await startGateway(t);
  const { alice, listed, as } = await scopedAlice(gw);
  const sealed = (await alice.post('/api/crypto/encrypt', { ttag: listed, plaintext: b64('secret') })).body;
  const { alg: _alg, sealed: _sealed, ...fields } = sealed;
  const path = `/api/keys/${pathTtag(listed)}`;
  const refusals = [
    await as('POST', '/api/crypto/decrypt', { ttag: listed, ...fields }),
    await as('POST', `${path}/export`, { clientPubKey: clientKeyPair().publicKey }),
    await as('POST', `${path}/expire`),
    await as('GET', `${path}/acl`),
    await as('PUT', `${path}/acl/bob`, { rights: ['read'] }),
    await as('DELETE', `${path}/acl/bob`),
    await as('POST', '/api/keys', { keyLen: 16 }),
  ];
  for (const reply of refusals) t.like(reply, { status: 403, body: { code: 'OUT_OF_SCOPE' } }, reply.text);
  t.false('plaintext' in refusals[0]!.body);
  t.is((await alice.get(path)).body.state, 'active', 'the key was not expired');
  t.deepEqual((await alice.get(`${path}/acl`)).body.items, [], 'the ACL was not changed');
});

test("the key's ACL is checked before the scope: another principal's key is ACL_DENIED", async (t) => {
  const gw = await startGateway(t);
  const { foreign, as } = await scopedAlice(gw);
  t.like(await as('GET', `/api/keys/${pathTtag(foreign)}`), { status: 403, body: { code: 'ACL_DENIED' } });
  t.like(await as('POST', '/api/crypto/encrypt', { ttag: foreign, plaintext: b64('x') }), { status: 403, body: { code: 'ACL_DENIED' } });
});

test('a scoped session reaches nothing but its keys: OUT_OF_SCOPE on directory reads and the audit log', async (t) => {
  const gw = await startGateway(t);
  const { as } = await scopedAlice(gw);
  t.like(await as('GET', '/api/principals/alice'), { status: 403, body: { code: 'OUT_OF_SCOPE' } });
  t.like(await as('GET', '/api/audit'), { status: 403, body: { code: 'ROLE_DENIED' } }, 'the role is checked first');
  const signer = await makeSigner('ES256');
  const admin = await signIn(gw, 'admin');
  const ttag = (await createKey(admin)).ttag;
  const minted = await admin.post('/api/session/scoped', { objects: [ttag], senderKey: signer.publicJwk });
  const audit = await gw.bound(signer, 'GET', '/api/audit', { bearer: minted.body.sessionId });
  t.like(audit, { status: 403, body: { code: 'OUT_OF_SCOPE' } }, "an admin's scoped session holds audit.read but reaches its keys only");
});

test('attack: a scoped session lists every session of its minter -> it lists only itself', async (t) => {
  // Issue 12 §6.
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const alice = await gw.login('alice');
  await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag;
  const minted = await gw.call('POST', '/api/session/scoped', {
    headers: { Authorization: `Bearer ${alice}` },
    body: { objects: [ttag], senderKey: signer.publicJwk },
  });
  const listed = await gw.bound(signer, 'GET', '/api/sessions', { bearer: minted.body.sessionId });
  t.is(listed.status, 200);
  t.is(listed.body.items.length, 1);
  t.is(listed.body.items[0].kind, 'scoped');
  t.is(
    (await gw.call('GET', '/api/sessions', { headers: { Authorization: `Bearer ${alice}` } })).body.items.length,
    3,
    'the minter still sees all',
  );
});
