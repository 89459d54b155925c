import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import test, { type ExecutionContext } from 'ava';
import { bundle, createAuthority, createIntermediate, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

// Issue 12 §3: paths through intermediates, validity at the gateway's clock, cA on authorities,
// digitalSignature (and clientAuth when listed) on leaves, subjects read structurally, and nothing
// kept for a certificate that is not trusted (or not enrolled while provisioning is off).

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });
const DAY = 86_400_000;

async function pki(t: ExecutionContext) {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const root = await createAuthority('partner root');
  const intermediate = await createIntermediate(root, 'partner issuing CA');
  const add = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: root.pem } });
  if (add.status !== 201) throw new Error(`trust: ${add.status} ${add.text}`);
  return { gw, admin, root, intermediate };
}

async function login(gw: TestGateway, certificate: string, signer: TestCertificate) {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate } });
  if (challenge.status !== 201) return challenge;
  return gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(signer, challenge.body.challenge) },
  });
}

async function enroll(gw: TestGateway, admin: string, principal: string, pem: string) {
  return gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal, pem } });
}

test('a leaf issued by an intermediate signs in with a bundle; the intermediate is never registered', async (t) => {
  const { gw, admin, intermediate } = await pki(t);
  const leaf = await createLeaf(intermediate, 'carol-cert');
  const enrolled = await enroll(gw, admin, 'carol', bundle(leaf, intermediate));
  t.is(enrolled.status, 201);
  const verdict = await gw.call('POST', '/api/certificates/verify', { headers: bearer(admin), body: { pem: bundle(leaf, intermediate) } });
  t.is(verdict.body.trusted, true);
  t.is(verdict.body.chain.length, 3);
  const reply = await login(gw, bundle(leaf, intermediate), leaf);
  t.is(reply.status, 201);
  t.is(reply.body.user, 'carol');
  t.is((await login(gw, leaf.pem, leaf)).status, 401, 'without its intermediate the leaf does not chain');
});

test('attack: the first leg stores a challenge for an untrusted or unenrolled certificate -> refused before any challenge', async (t) => {
  const { gw, root } = await pki(t);
  const stranger = await createLeaf(await createAuthority('stranger CA'), 'carol');
  const untrusted = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: stranger.pem } });
  t.is(untrusted.status, 401);
  t.is(untrusted.body.code, 'WRONG_CREDENTIAL');
  t.is(untrusted.body.challengeId, undefined);
  const unenrolled = await gw.call('POST', '/api/session/certificate/challenge', {
    body: { certificate: (await createLeaf(root, 'nobody')).pem },
  });
  t.is(unenrolled.status, 401, 'trusted but not enrolled, with provisioning off');
  t.is(unenrolled.body.challengeId, undefined);
});

test('attack: a leaf posing as an authority (no cA) cannot issue a path', async (t) => {
  const { gw, admin, root } = await pki(t);
  const notCa = await createIntermediate(root, 'not a CA', { ca: false });
  const leaf = await createLeaf(notCa, 'carol-cert');
  const reply = await enroll(gw, admin, 'carol', bundle(leaf, notCa));
  t.is(reply.status, 409);
  t.is(reply.body.code, 'CONFLICT');
});

test('attack: leaves without digitalSignature, or with an extendedKeyUsage lacking clientAuth, are refused', async (t) => {
  const { gw, admin, root } = await pki(t);
  const noSignature = await createLeaf(root, 'a', { keyUsage: x509.KeyUsageFlags.keyEncipherment });
  const serverOnly = await createLeaf(root, 'b', { extendedKeyUsage: [x509.ExtendedKeyUsage.serverAuth] });
  for (const leaf of [noSignature, serverOnly]) {
    const reply = await enroll(gw, admin, 'carol', leaf.pem);
    t.is(reply.status, 409);
    t.is(reply.body.code, 'CONFLICT');
  }
  const clientAuth = await createLeaf(root, 'c', { extendedKeyUsage: [x509.ExtendedKeyUsage.clientAuth] });
  t.is((await enroll(gw, admin, 'carol', clientAuth.pem)).status, 201);
});

test('attack: an intermediate under a root with pathLenConstraint 0 is refused; the root still issues leaves directly', async (t) => {
  const { gw, admin } = await pki(t);
  const root = await createAuthority('leaves-only root', { pathLength: 0 });
  t.is((await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: root.pem } })).status, 201);
  const intermediate = await createIntermediate(root, 'unauthorised issuing CA');
  const leaf = await createLeaf(intermediate, 'carol-cert');
  const enrolled = await enroll(gw, admin, 'carol', bundle(leaf, intermediate));
  t.is(enrolled.status, 409);
  t.like(enrolled.body, { code: 'CONFLICT', reason: 'the path is longer than an authority allows (basicConstraints pathLenConstraint)' });
  const verdict = await gw.call('POST', '/api/certificates/verify', { headers: bearer(admin), body: { pem: bundle(leaf, intermediate) } });
  t.is(verdict.body.trusted, false);
  t.is((await login(gw, bundle(leaf, intermediate), leaf)).status, 401);
  const direct = await createLeaf(root, 'bob-cert');
  t.is((await enroll(gw, admin, 'bob', direct.pem)).status, 201, 'no intermediate: within pathLenConstraint 0');
  t.is((await login(gw, direct.pem, direct)).status, 201);
});

test('attack: an intermediate whose keyUsage lacks keyCertSign cannot issue a path', async (t) => {
  const { gw, admin, root } = await pki(t);
  const signerOnly = await createIntermediate(root, 'signing-only CA', { keyUsage: x509.KeyUsageFlags.digitalSignature });
  const leaf = await createLeaf(signerOnly, 'carol-cert');
  const reply = await enroll(gw, admin, 'carol', bundle(leaf, signerOnly));
  t.is(reply.status, 409);
  t.like(reply.body, { code: 'CONFLICT', reason: 'an authority on the path may not sign certificates (keyUsage keyCertSign)' });
  t.is((await login(gw, bundle(leaf, signerOnly), leaf)).status, 401);
});

test('an intermediate past its validity at the injected clock breaks the path', async (t) => {
  const { gw, admin, root } = await pki(t);
  const shortLived = await createIntermediate(root, 'short-lived CA', { notAfter: new Date(Date.now() + 2 * DAY) });
  const leaf = await createLeaf(shortLived, 'carol-cert');
  t.is((await enroll(gw, admin, 'carol', bundle(leaf, shortLived))).status, 201);
  gw.clock.advance(3 * DAY);
  const reply = await login(gw, bundle(leaf, shortLived), leaf);
  t.is(reply.status, 401);
});

test('a subject CN=Smith\\, John is read structurally: enrolled to "Smith, John", it signs in as "Smith, John"', async (t) => {
  const { gw, admin, root } = await pki(t);
  const created = await gw.call('POST', '/api/principals', { headers: bearer(admin), body: { name: 'Smith, John', kind: 'user' } });
  t.is(created.status, 201);
  const leaf = await createLeaf(root, 'Smith\\, John');
  const enrolled = await enroll(gw, admin, 'Smith, John', leaf.pem);
  t.is(enrolled.status, 201);
  t.is(enrolled.body.principal, 'Smith, John');
  const reply = await login(gw, leaf.pem, leaf);
  t.is(reply.status, 201);
  t.is(reply.body.user, 'Smith, John');
  const self = await gw.call('GET', '/api/session', { headers: bearer(reply.body.sessionId) });
  t.is(self.body.user, 'Smith, John');
});

test('with auto-provisioning a CN=Smith\\, John certificate creates "Smith, John", reachable at /api/principals/Smith%2C%20John', async (t) => {
  const { gw, admin, root } = await pki(t);
  await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: true } });
  const leaf = await createLeaf(root, 'Smith\\, John');
  const reply = await login(gw, leaf.pem, leaf);
  t.is(reply.status, 201);
  t.is(reply.body.user, 'Smith, John');
  const view = await gw.call('GET', '/api/principals/Smith%2C%20John', { headers: bearer(admin) });
  t.is(view.status, 200);
  t.is(view.body.name, 'Smith, John');
  t.is(typeof view.body.provisionedBy, 'string');
});

test('the principal-name rule admits interior spaces and commas, never leading or trailing space, control characters or "/"', async (t) => {
  const { gw, admin } = await pki(t);
  const create = (name: string) => gw.call('POST', '/api/principals', { headers: bearer(admin), body: { name, kind: 'user' } });
  for (const name of ['Doe, Jane', 'Jane Doe', 'j.doe@example.org']) t.is((await create(name)).status, 201, name);
  for (const name of [' Jane', 'Jane ', 'Jane,', 'Ja\nne', 'Ja\u0000ne', 'a/b', ',Jane', 'x'.repeat(65)]) {
    const reply = await create(name);
    t.is(reply.status, 400, JSON.stringify(name));
    t.is(reply.body.code, 'BAD_REQUEST');
  }
});
