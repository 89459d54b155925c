import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

const DAY = 86_400_000;
const GARBAGE = ['hello', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'];

interface World {
  gw: TestGateway;
  admin: ApiSession;
  authority: TestCertificate;
  leaf: TestCertificate;
}

async function world(t: ExecutionContext): Promise<World> {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  const authority = await createAuthority('keygate test CA');
  const leaf = await createLeaf(authority, 'carol-leaf');
  await admin.post('/api/trust/authorities', { pem: authority.pem });
  await admin.post('/api/trust/enrollments', { principal: 'carol', pem: leaf.pem });
  return { gw, admin, authority, leaf };
}

/** api-surface.md "Decisions": the id is the lower-case hex SHA-256 of the DER. */
const idOf = (certificate: TestCertificate) => createHash('sha256').update(Buffer.from(certificate.cert.rawData)).digest('hex');

test('GET /api/certificates lists the trusted authorities and the enrolled leaves, complete', async (t) => {
  const { gw, authority } = await world(t);
  const alice = await signIn(gw, 'alice');
  const reply = await alice.get('/api/certificates');
  t.is(reply.status, 200);
  t.is(reply.body.complete, true);
  t.is(reply.body.items.length, 2);
  const leaf = reply.body.items.find((c: { principal?: string }) => c.principal === 'carol');
  t.regex(leaf.id, /^[0-9a-f]{64}$/);
  t.deepEqual(Object.keys(leaf).sort(), ['id', 'issuer', 'keyAlg', 'notAfter', 'notBefore', 'pem', 'principal', 'serial', 'subject']);
  t.like(leaf, { subject: 'CN=carol-leaf', issuer: 'CN=keygate test CA', keyAlg: 'RSA-2048' });
  const ca = reply.body.items.find((c: { principal?: string }) => c.principal === undefined);
  t.is(ca.pem.trim(), authority.pem.trim());
  t.is(ca.id, idOf(authority));
});

test('GET /api/certificates filters by subject and principal, and pages by id', async (t) => {
  const { admin } = await world(t);
  t.deepEqual(
    (await admin.get('/api/certificates?subject=CAROL')).body.items.map((c: { subject: string }) => c.subject),
    ['CN=carol-leaf'],
  );
  t.deepEqual(
    (await admin.get('/api/certificates?principal=carol')).body.items.map((c: { subject: string }) => c.subject),
    ['CN=carol-leaf'],
  );
  t.deepEqual((await admin.get('/api/certificates?principal=bob')).body.items, []);
  const first = await admin.get('/api/certificates?limit=1');
  t.is(first.body.items.length, 1);
  const second = await admin.get(`/api/certificates?limit=1&cursor=${encodeURIComponent(first.body.next)}`);
  t.is(second.body.items.length, 1);
  t.false('next' in second.body);
  t.true(first.body.items[0].id < second.body.items[0].id);
  t.is((await admin.get('/api/certificates?limit=9999')).status, 400);
});

test('GET /api/certificates/{id} answers the certificate object; unknown is 404, not an id 400', async (t) => {
  const { admin, leaf } = await world(t);
  const parsed = await admin.post('/api/certificates/parse', { pem: leaf.pem });
  const reply = await admin.get(`/api/certificates/${parsed.body.id}`);
  t.is(reply.status, 200);
  t.like(reply.body, { id: parsed.body.id, principal: 'carol', subject: 'CN=carol-leaf' });
  t.is((await admin.get(`/api/certificates/${parsed.body.id.toUpperCase()}`)).status, 200);
  t.is((await admin.get(`/api/certificates/${'0'.repeat(64)}`)).status, 404);
  t.is((await admin.get('/api/certificates/xyz')).status, 400);
});

test('POST /api/certificates/parse answers the fields and stores nothing', async (t) => {
  const { admin, authority } = await world(t);
  const stranger = await createLeaf(authority, 'stranger', { keyType: 'EC' });
  const reply = await admin.post('/api/certificates/parse', { pem: stranger.pem });
  t.is(reply.status, 200);
  t.like(reply.body, { subject: 'CN=stranger', keyAlg: 'EC-prime256v1' });
  t.false('principal' in reply.body);
  t.is((await admin.get(`/api/certificates/${reply.body.id}`)).status, 404);
  t.is((await admin.get('/api/certificates')).body.items.length, 2);
});

test('POST /api/certificates/parse answers 400 CERTIFICATE_MALFORMED for garbage', async (t) => {
  const { admin } = await world(t);
  for (const pem of GARBAGE) {
    const reply = await admin.post('/api/certificates/parse', { pem });
    t.is(reply.status, 400);
    t.is(reply.body.code, 'CERTIFICATE_MALFORMED');
  }
});

test('POST /api/certificates/verify: trusted with its chain, or untrusted with a reason', async (t) => {
  const { gw, authority, leaf } = await world(t);
  const alice = await signIn(gw, 'alice');
  const trusted = await alice.post('/api/certificates/verify', { pem: leaf.pem });
  t.is(trusted.status, 200);
  t.is(trusted.body.trusted, true);
  t.is(trusted.body.chain.length, 2);
  t.false('reason' in trusted.body);
  const untrusted = await alice.post('/api/certificates/verify', { pem: (await createLeaf(await createAuthority('other CA'), 'x')).pem });
  t.like(untrusted.body, { trusted: false, reason: 'the certificate does not chain to a trusted authority' });
  t.is(untrusted.body.chain.length, 1);
  const expired = await createLeaf(authority, 'old', { notBefore: new Date(Date.now() - 10 * DAY), notAfter: new Date(Date.now() - DAY) });
  t.like((await alice.post('/api/certificates/verify', { pem: expired.pem })).body, {
    trusted: false,
    reason: 'the certificate is outside its validity period',
  });
});

test('POST /api/certificates/verify answers 400 CERTIFICATE_MALFORMED for garbage, 403 without the role', async (t) => {
  const { gw, admin, leaf } = await world(t);
  const garbage = await admin.post('/api/certificates/verify', { pem: GARBAGE[0] });
  t.is(garbage.status, 400);
  t.is(garbage.body.code, 'CERTIFICATE_MALFORMED');
  const denied = await (await signIn(gw, 'audra')).post('/api/certificates/verify', { pem: leaf.pem });
  t.is(denied.status, 403);
  t.is(denied.body.code, 'ROLE_DENIED');
});
