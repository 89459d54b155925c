import test from 'ava';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { buildProof, makeSigner, type ProofSigner } from '../_support/proof-builder.js';

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function newKey(gw: TestGateway, session: string): Promise<string> {
  return (await gw.call('POST', '/keys', { headers: { 'X-Session': session } })).body.ttag;
}

async function scoped(gw: TestGateway, signer: ProofSigner, extra: Record<string, unknown> = {}) {
  const alice = await gw.login('alice');
  const ttag = await newKey(gw, alice);
  const other = await newKey(gw, alice);
  const reply = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], senderKey: signer.publicJwk, ...extra },
  });
  return { alice, ttag, other, reply, session: reply.body.sessionId as string };
}

test('a scoped session is bound to the senderKey thumbprint and narrowed to its objects', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { reply, ttag } = await scoped(gw, signer);
  t.is(reply.status, 201);
  t.like(reply.body, { kind: 'scoped', bound: true, jkt: signer.jkt, objects: [ttag] });
  t.deepEqual(reply.body.rights, ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign']);
  const ttl = (Date.parse(reply.body.expiresAt) - gw.clock.now()) / 1000;
  t.true(ttl <= 300 && ttl > 295, 'lasts 300 s by default');
});

test('a bound session needs a proof on every route: PROOF_MISSING without, accepted with', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session } = await scoped(gw, signer);
  const missing = await gw.call('GET', '/api/session', { headers: bearer(session) });
  t.is(missing.status, 401);
  t.is(missing.body.code, 'PROOF_MISSING');
  const ok = await gw.bound(signer, 'GET', '/api/session', { bearer: session });
  t.is(ok.status, 200);
  t.is(ok.body.kind, 'scoped');
});

test('a proof replayed is refused with PROOF_REPLAYED', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session } = await scoped(gw, signer);
  const proof = buildProof(
    signer,
    { method: 'GET', htu: `${gw.url}/api/session`, credential: session, body: Buffer.alloc(0) },
    gw.clock.now(),
  );
  const headers = { ...bearer(session), DPoP: proof };
  t.is((await gw.call('GET', '/api/session', { headers })).status, 200);
  const again = await gw.call('GET', '/api/session', { headers });
  t.is(again.status, 401);
  t.is(again.body.code, 'PROOF_REPLAYED');
});

test('the seven operations honour the binding too: ath over X-Session, bth over the body', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session, ttag, other } = await scoped(gw, signer);
  const client = clientKeyPair();
  const body = { ttag, clientPubKey: client.publicKey };
  const missing = await gw.call('POST', '/keys/export', { headers: { 'X-Session': session }, body });
  t.is(missing.status, 401);
  t.is(missing.body.error, 'PROOF_MISSING');
  const exported = await gw.bound(signer, 'POST', '/keys/export', { xSession: session }, body);
  t.is(exported.status, 200);
  t.is(client.unwrap(exported.body.wrapped).length, 16);
  const outside = await gw.bound(signer, 'POST', '/keys/export', { xSession: session }, { ...body, ttag: other });
  t.is(outside.status, 403);
  t.is(outside.body.error, 'export denied or failed');
  const generate = await gw.bound(signer, 'POST', '/keys', { xSession: session });
  t.is(generate.status, 403, 'a scoped session cannot create keys');
});

test('a proof over another body or another credential is PROOF_BINDING_MISMATCH', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session, ttag } = await scoped(gw, signer);
  const client = clientKeyPair();
  const proof = buildProof(
    signer,
    { method: 'POST', htu: `${gw.url}/keys/export`, credential: session, body: Buffer.from('{}') },
    gw.clock.now(),
  );
  const reply = await gw.call('POST', '/keys/export', {
    headers: { 'X-Session': session, DPoP: proof },
    body: { ttag, clientPubKey: client.publicKey },
  });
  t.is(reply.status, 401);
  t.is(reply.body.error, 'PROOF_BINDING_MISMATCH');
  const other = await gw.bound(signer, 'GET', '/api/session', { bearer: session }, undefined, { claims: { ath: 'x'.repeat(43) } });
  t.is(other.body.code, 'PROOF_BINDING_MISMATCH');
});

test('a proof signed by another key is PROOF_KEY_MISMATCH', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session } = await scoped(gw, signer);
  const reply = await gw.bound(await makeSigner('ES256'), 'GET', '/api/session', { bearer: session });
  t.is(reply.status, 401);
  t.is(reply.body.code, 'PROOF_KEY_MISMATCH');
});

test('an unbound session ignores a proof, even garbage', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const reply = await gw.call('GET', '/api/session', { headers: { ...bearer(alice), DPoP: 'not.a.proof' } });
  t.is(reply.status, 200);
});

test('logout of a bound session needs its proof; without one the session stays alive', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session } = await scoped(gw, signer);
  const refused = await gw.call('DELETE', '/api/session', { headers: bearer(session) });
  t.is(refused.status, 401);
  t.is(refused.body.code, 'PROOF_MISSING');
  t.is((await gw.bound(signer, 'GET', '/api/session', { bearer: session })).status, 200);
  t.is((await gw.bound(signer, 'DELETE', '/api/session', { bearer: session })).status, 204);
  t.is((await gw.bound(signer, 'GET', '/api/session', { bearer: session })).body.code, 'SESSION_UNKNOWN');
});

test('behind a proxy, htu is checked against TE_GATEWAY_PUBLIC_ORIGIN', async (t) => {
  const gw = await startGateway(t, { publicOrigin: 'https://keys.example.com' });
  const signer = await makeSigner('ES256');
  const { session } = await scoped(gw, signer);
  const local = await gw.bound(signer, 'GET', '/api/session', { bearer: session });
  t.is(local.status, 401);
  t.is(local.body.code, 'PROOF_BINDING_MISMATCH');
  const proof = buildProof(
    signer,
    { method: 'GET', htu: 'https://KEYS.example.com:443/api/session?x=1', credential: session, body: Buffer.alloc(0) },
    gw.clock.now(),
  );
  t.is((await gw.call('GET', '/api/session', { headers: { ...bearer(session), DPoP: proof } })).status, 200);
});

test('a scoped session ends after its lifetime, and cannot mint sessions', async (t) => {
  const gw = await startGateway(t);
  const signer = await makeSigner('ES256');
  const { session, ttag } = await scoped(gw, signer, { ttlSeconds: 60 });
  const mint = await gw.bound(signer, 'POST', '/api/session/scoped', { bearer: session }, { objects: [ttag], senderKey: signer.publicJwk });
  t.is(mint.status, 403);
  t.is(mint.body.code, 'OUT_OF_SCOPE');
  gw.clock.advance(60_000);
  t.is((await gw.bound(signer, 'GET', '/api/session', { bearer: session })).body.code, 'SESSION_UNKNOWN');
});

const badScoped: [string, (signer: ProofSigner) => Record<string, unknown>][] = [
  ['a senderKey with a private member', (s) => ({ senderKey: { ...s.publicJwk, d: 'AAAA' } })],
  ['an RSA senderKey', () => ({ senderKey: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } })],
  ['a ttl under a minute', () => ({ ttlSeconds: 59 })],
  ['a ttl over 15 minutes', () => ({ ttlSeconds: 901 })],
  ['no objects', () => ({ objects: [] })],
  ['an unknown right', () => ({ rights: ['fly'] })],
];
for (const [name, change] of badScoped) {
  test(`minting a scoped session with ${name} is 400`, async (t) => {
    const gw = await startGateway(t);
    const signer = await makeSigner('ES256');
    const { reply } = await scoped(gw, signer, change(signer));
    t.is(reply.status, 400);
    t.is(reply.body.code, 'BAD_REQUEST');
  });
}

test('scoping to a key the minter cannot use is 403 ACL_DENIED', async (t) => {
  const gw = await startGateway(t);
  const bob = await gw.login('bob');
  const alice = await gw.login('alice');
  const ttag = await newKey(gw, bob);
  const reply = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], senderKey: (await makeSigner('ES256')).publicJwk },
  });
  t.is(reply.status, 403);
  t.is(reply.body.code, 'ACL_DENIED');
});

async function boundService(gw: TestGateway) {
  const admin = await gw.login('admin');
  const authority = await createAuthority('svc CA');
  const leaf = await createLeaf(authority, 'svc');
  const signer = await makeSigner('RS256');
  await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'svc', pem: leaf.pem } });
  await gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk: signer.publicJwk } });
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  return { signer, login, session: login.body.sessionId as string, authority };
}

test('a bound service session mints a delegated session bound to its own key', async (t) => {
  const gw = await startGateway(t);
  const { signer, login, session } = await boundService(gw);
  t.like(login.body, { kind: 'certificate', bound: true, jkt: signer.jkt, user: 'svc' });
  // Issue 12 §1: a service acts only for the principals an administrator listed.
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(await gw.login('admin')), body: { delegates: ['alice'] } });
  const delegated = await gw.bound(signer, 'POST', '/api/session/delegated', { bearer: session }, { principal: 'alice' });
  t.is(delegated.status, 201);
  t.like(delegated.body, { kind: 'delegated', user: 'alice', actingFor: 'svc', bound: true, jkt: signer.jkt });
  const used = await gw.bound(signer, 'GET', '/api/session', { bearer: delegated.body.sessionId });
  t.is(used.body.user, 'alice');
  t.is((await gw.call('GET', '/api/session', { headers: bearer(delegated.body.sessionId) })).body.code, 'PROOF_MISSING');
});

test('delegation is refused to an unbound session and to a principal without session.delegate', async (t) => {
  const gw = await startGateway(t);
  const alice = await gw.login('alice');
  const unbound = await gw.call('POST', '/api/session/delegated', { headers: bearer(alice), body: { principal: 'bob' } });
  t.is(unbound.status, 403);
  t.is(unbound.body.code, 'ROLE_DENIED');
  const { signer, session } = await boundService(gw);
  const unknown = await gw.bound(signer, 'POST', '/api/session/delegated', { bearer: session }, { principal: 'nobody' });
  t.is(unknown.status, 404);
});
