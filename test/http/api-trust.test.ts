import test, { type ExecutionContext } from 'ava';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

const DAY = 86_400_000;

async function trusted(t: ExecutionContext): Promise<{ gw: TestGateway; admin: ApiSession; authority: TestCertificate; id: string }> {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const authority = await createAuthority('keygate test CA');
  const added = await admin.post('/api/trust/authorities', { pem: authority.pem });
  return { gw, admin, authority, id: added.body.id };
}

async function certificateLogin(gw: TestGateway, certificate: TestCertificate) {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: certificate.pem } });
  // Issue 12 §3: an untrusted certificate is refused at the first leg already.
  if (challenge.status !== 201) return challenge;
  return gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(certificate, challenge.body.challenge) },
  });
}

test('GET /api/trust/authorities lists the trusted authorities', async (t) => {
  const { admin, id } = await trusted(t);
  const reply = await admin.get('/api/trust/authorities');
  t.is(reply.status, 200);
  t.is(reply.body.complete, true);
  t.deepEqual(
    reply.body.items.map((c: { id: string }) => c.id),
    [id],
  );
  t.is(reply.body.items[0].subject, 'CN=keygate test CA');
});

test('POST /api/trust/authorities answers 201 with the certificate object', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const reply = await admin.post('/api/trust/authorities', { pem: (await createAuthority('second CA')).pem });
  t.is(reply.status, 201);
  t.like(reply.body, { subject: 'CN=second CA', issuer: 'CN=second CA' });
  t.regex(reply.body.id, /^[0-9a-f]{64}$/);
});

test('POST /api/trust/authorities gives garbage, a non-CA and an expired CA each its own 400', async (t) => {
  const { admin, authority } = await trusted(t);
  const garbage = await admin.post('/api/trust/authorities', { pem: 'not a certificate' });
  t.like(garbage.body, { code: 'CERTIFICATE_MALFORMED' });
  t.is(garbage.status, 400);
  const leaf = await admin.post('/api/trust/authorities', { pem: (await createLeaf(authority, 'leaf')).pem });
  t.is(leaf.status, 400);
  t.like(leaf.body, { code: 'BAD_REQUEST' });
  t.regex(leaf.body.detail, /not a CA certificate/);
  const old = await createAuthority('old CA', { notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) });
  const expired = await admin.post('/api/trust/authorities', { pem: old.pem });
  t.is(expired.status, 400);
  t.regex(expired.body.detail, /validity period/);
  t.is((await admin.get('/api/trust/authorities')).body.items.length, 1);
});

test('DELETE /api/trust/authorities/{id} answers 204; the leaves it issued no longer sign in', async (t) => {
  const { gw, admin, authority, id } = await trusted(t);
  const leaf = await createLeaf(authority, 'svc');
  await admin.post('/api/trust/enrollments', { principal: 'carol', pem: leaf.pem });
  t.is((await certificateLogin(gw, leaf)).status, 201);
  const reply = await admin.del(`/api/trust/authorities/${id}`);
  t.is(reply.status, 204);
  t.deepEqual((await admin.get('/api/trust/authorities')).body.items, []);
  t.is((await certificateLogin(gw, leaf)).status, 401);
  t.is((await admin.del(`/api/trust/authorities/${id}`)).status, 404);
});

test('POST /api/trust/enrollments answers 201 with the certificate bound to the principal', async (t) => {
  const { admin, authority } = await trusted(t);
  const reply = await admin.post('/api/trust/enrollments', { principal: 'bob', pem: (await createLeaf(authority, 'bob-cert')).pem });
  t.is(reply.status, 201);
  t.like(reply.body, { principal: 'bob', subject: 'CN=bob-cert' });
  t.is((await admin.get(`/api/certificates/${reply.body.id}`)).body.principal, 'bob');
});

test('POST /api/trust/enrollments: an expired leaf and an untrusted one are 409 CONFLICT, each with its reason', async (t) => {
  const { admin, authority } = await trusted(t);
  const expired = await createLeaf(authority, 'old', { notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) });
  const untrusted = await createLeaf(await createAuthority('other CA'), 'x');
  const first = await admin.post('/api/trust/enrollments', { principal: 'bob', pem: expired.pem });
  t.is(first.status, 409);
  t.like(first.body, { code: 'CONFLICT', reason: 'the certificate is outside its validity period' });
  const second = await admin.post('/api/trust/enrollments', { principal: 'bob', pem: untrusted.pem });
  t.is(second.status, 409);
  t.like(second.body, { code: 'CONFLICT', reason: 'the certificate does not chain to a trusted authority' });
});

test('POST /api/trust/enrollments refuses a leaf enrolled to another principal (409), garbage and a group (400), a user (403)', async (t) => {
  const { gw, admin, authority } = await trusted(t);
  const leaf = await createLeaf(authority, 'shared');
  await admin.post('/api/trust/enrollments', { principal: 'bob', pem: leaf.pem });
  const taken = await admin.post('/api/trust/enrollments', { principal: 'carol', pem: leaf.pem });
  t.is(taken.status, 409);
  t.like(taken.body, { reason: 'the certificate is enrolled to another principal' });
  t.is((await admin.post('/api/trust/enrollments', { principal: 'bob', pem: 'garbage' })).body.code, 'CERTIFICATE_MALFORMED');
  t.is((await admin.post('/api/trust/enrollments', { principal: 'ops', pem: (await createLeaf(authority, 'g')).pem })).status, 400);
  t.is((await admin.post('/api/trust/enrollments', { principal: 'nobody', pem: (await createLeaf(authority, 'n')).pem })).status, 404);
  const denied = await (await signIn(gw, 'alice')).post('/api/trust/enrollments', {
    principal: 'alice',
    pem: (await createLeaf(authority, 'a')).pem,
  });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
});
