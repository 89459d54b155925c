import test, { type ExecutionContext } from 'ava';
import { createAuthority, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

interface World {
  gw: TestGateway;
  admin: string;
  authority: TestCertificate;
  other: TestCertificate;
  enrolled: TestCertificate;
}

async function world(t: ExecutionContext): Promise<World> {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const authority = await createAuthority('keygate test CA');
  const other = await createAuthority('another CA');
  const enrolled = await createLeaf(authority, 'svc-leaf');
  const add = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  if (add.status !== 201) throw new Error(`trust: ${add.status} ${add.text}`);
  const enroll = await gw.call('POST', '/api/trust/enrollments', {
    headers: bearer(admin),
    body: { principal: 'carol', pem: enrolled.pem },
  });
  if (enroll.status !== 201) throw new Error(`enroll: ${enroll.status} ${enroll.text}`);
  return { gw, admin, authority, other, enrolled };
}

async function certificateLogin(
  gw: TestGateway,
  certificate: TestCertificate,
  sign: (challenge: string) => string = (c) => signChallenge(certificate, c),
) {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: certificate.pem } });
  if (challenge.status !== 201) return challenge;
  return gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: sign(challenge.body.challenge) },
  });
}

test('the challenge is 32 random bytes, base64url, with an id and an expiry about 60 s away', async (t) => {
  const { gw, enrolled } = await world(t);
  const reply = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: enrolled.pem } });
  t.is(reply.status, 201);
  t.is(Buffer.from(reply.body.challenge, 'base64url').length, 32);
  t.regex(reply.body.challengeId, /^[A-Za-z0-9_-]+$/);
  const seconds = (Date.parse(reply.body.expiresAt) - gw.clock.now()) / 1000;
  t.true(seconds > 55 && seconds <= 60);
});

test('an enrolled leaf of a trusted authority signs in (RS256), unbound without a sender key', async (t) => {
  const { gw, enrolled } = await world(t);
  const reply = await certificateLogin(gw, enrolled);
  t.is(reply.status, 201);
  t.like(reply.body, { user: 'carol', kind: 'certificate', bound: false });
  t.is((await gw.call('GET', '/api/session', { headers: bearer(reply.body.sessionId) })).status, 200);
});

test('an enrolled P-256 leaf signs in with ES256', async (t) => {
  const { gw, admin, authority } = await world(t);
  const leaf = await createLeaf(authority, 'ec-leaf', { keyType: 'EC' });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'bob', pem: leaf.pem } });
  const reply = await certificateLogin(gw, leaf);
  t.is(reply.status, 201);
  t.is(reply.body.user, 'bob');
});

test('a principal with a registered sender key gets a bound session carrying its thumbprint', async (t) => {
  const { gw, admin, enrolled } = await world(t);
  const jwk = enrolled.cert.publicKey;
  const exported = await (await import('node:crypto')).webcrypto.subtle.exportKey('jwk', await jwk.export());
  const put = await gw.call('PUT', '/api/principals/carol/sender-key', {
    headers: bearer(admin),
    body: { jwk: { kty: exported.kty, n: exported.n, e: exported.e } },
  });
  t.is(put.status, 200);
  t.regex(put.body.jkt, /^[A-Za-z0-9_-]{43}$/);
  const reply = await certificateLogin(gw, enrolled);
  t.is(reply.status, 201);
  t.like(reply.body, { bound: true, jkt: put.body.jkt });
});

const refused: [string, (w: World) => Promise<TestCertificate>][] = [
  ['an unenrolled leaf', async (w) => createLeaf(w.authority, 'stranger')],
  [
    'an expired leaf',
    async (w) =>
      createLeaf(w.authority, 'old', { notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }),
  ],
  ['a leaf from another authority', async (w) => createLeaf(w.other, 'svc-leaf')],
];
for (const [name, make] of refused) {
  test(`certificate login refuses ${name} with 401 WRONG_CREDENTIAL`, async (t) => {
    const w = await world(t);
    const reply = await certificateLogin(w.gw, await make(w));
    t.is(reply.status, 401);
    t.is(reply.body.code, 'WRONG_CREDENTIAL');
    t.is((await w.gw.call('GET', '/health')).body.sessions, 1, 'no session was minted');
  });
}

test('certificate login refuses a signature by another key, and a challenge used twice', async (t) => {
  const { gw, authority, enrolled } = await world(t);
  const impostor = await createLeaf(authority, 'svc-leaf');
  const wrongKey = await certificateLogin(gw, enrolled, (c) => signChallenge(impostor, c));
  t.is(wrongKey.status, 401);
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: enrolled.pem } });
  const signature = signChallenge(enrolled, challenge.body.challenge);
  t.is((await gw.call('POST', '/api/session/certificate', { body: { challengeId: challenge.body.challengeId, signature } })).status, 201);
  const again = await gw.call('POST', '/api/session/certificate', { body: { challengeId: challenge.body.challengeId, signature } });
  t.is(again.status, 401);
});

test('a challenge is refused after 60 s', async (t) => {
  const { gw, enrolled } = await world(t);
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: enrolled.pem } });
  gw.clock.advance(60_001);
  const reply = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(enrolled, challenge.body.challenge) },
  });
  t.is(reply.status, 401);
});

test('garbage instead of a certificate is 400 CERTIFICATE_MALFORMED', async (t) => {
  const { gw } = await world(t);
  for (const certificate of ['hello', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----']) {
    const reply = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate } });
    t.is(reply.status, 400);
    t.is(reply.body.code, 'CERTIFICATE_MALFORMED');
  }
});

test('auto-provisioning signs in a trusted unenrolled certificate when the policy allows it', async (t) => {
  const { gw, admin, authority } = await world(t);
  const leaf = await createLeaf(authority, 'newcomer');
  t.is((await certificateLogin(gw, leaf)).status, 401);
  const policy = await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: true } });
  t.is(policy.status, 200);
  t.is(policy.body.autoProvision, true);
  const reply = await certificateLogin(gw, leaf);
  t.is(reply.status, 201);
  t.is(reply.body.user, 'newcomer');
});

test('only admin manages trust: another user gets 403 ROLE_DENIED; a non-CA authority is 400', async (t) => {
  const { gw, admin, authority, enrolled } = await world(t);
  const alice = await gw.login('alice');
  const denied = await gw.call('POST', '/api/trust/authorities', { headers: bearer(alice), body: { pem: authority.pem } });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
  const notCa = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: enrolled.pem } });
  t.is(notCa.status, 400);
  t.is(notCa.body.code, 'BAD_REQUEST');
});

test('enrolling a leaf of an untrusted authority is 409 CONFLICT with a reason', async (t) => {
  const { gw, admin, other } = await world(t);
  const leaf = await createLeaf(other, 'x');
  const reply = await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'bob', pem: leaf.pem } });
  t.is(reply.status, 409);
  t.is(reply.body.code, 'CONFLICT');
  t.is(typeof reply.body.reason, 'string');
});
