import 'reflect-metadata';
import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import {
  bundle,
  createAuthority,
  createIntermediate,
  createLeaf,
  nameConstraints,
  signChallenge,
  type TestCertificate,
  unknownExtension,
} from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

// RFC 5280 on the certificate-login path: name constraints (§4.2.1.10, §6.1), unknown critical
// extensions (§4.2), and auto-provisioning bound to the authority that issued the leaf, not its root.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });
const idOf = (certificate: TestCertificate) => createHash('sha256').update(Buffer.from(certificate.cert.rawData)).digest('hex');

async function world(t: ExecutionContext) {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const root = await createAuthority('group root', { pathLength: 2 });
  const add = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: root.pem } });
  if (add.status !== 201) throw new Error(`trust: ${add.status} ${add.text}`);
  const policy = await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: true } });
  if (policy.status !== 200) throw new Error(`policy: ${policy.status} ${policy.text}`);
  return { gw, admin, root };
}

async function login(gw: TestGateway, certificate: string, signer: TestCertificate) {
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate } });
  if (challenge.status !== 201) return challenge;
  return gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(signer, challenge.body.challenge) },
  });
}

async function verdict(gw: TestGateway, admin: string, pem: string) {
  const reply = await gw.call('POST', '/api/certificates/verify', { headers: bearer(admin), body: { pem } });
  if (reply.status !== 200) throw new Error(`verify: ${reply.status} ${reply.text}`);
  return reply.body as { trusted: boolean; reason?: string };
}

test('attack: a sub-CA limited to O=Partner Ltd issues O=Example,CN=mallory and signs in -> 401; inside its subtree it still signs in', async (t) => {
  const { gw, admin, root } = await world(t);
  const partner = await createIntermediate(root, 'partner CA', {
    subject: 'O=Partner Ltd, CN=Partner CA',
    extensions: [nameConstraints({ permitted: [{ dn: 'O=Partner Ltd' }] })],
  });
  const outside = await createLeaf(partner, 'mallory', { subject: 'O=Example, CN=mallory' });
  const refused = await login(gw, bundle(outside, partner), outside);
  t.is(refused.status, 401);
  t.is(refused.body.code, 'WRONG_CREDENTIAL');
  t.is(refused.body.challengeId, undefined);
  t.regex((await verdict(gw, admin, bundle(outside, partner))).reason ?? '', /permitted subtrees/);
  t.is((await gw.call('GET', '/api/principals/mallory', { headers: bearer(admin) })).status, 404, 'nobody was provisioned');
  const enrolled = await gw.call('POST', '/api/trust/enrollments', {
    headers: bearer(admin),
    body: { principal: 'carol', pem: bundle(outside, partner) },
  });
  t.is(enrolled.status, 409, 'nor can it be enrolled');

  const inside = await createLeaf(partner, 'pat', { subject: 'O=Partner Ltd, OU=Sales, CN=pat' });
  const accepted = await login(gw, bundle(inside, partner), inside);
  t.is(accepted.status, 201);
  t.is(accepted.body.user, 'pat');
});

test('name constraints: excluded subtrees, DNS names, mailboxes and the subject emailAddress are enforced through the whole path', async (t) => {
  const { gw, admin, root } = await world(t);
  const constrained = await createIntermediate(root, 'constrained CA', {
    subject: 'O=Partner Ltd, CN=Constrained CA',
    extensions: [
      nameConstraints({
        permitted: [{ dn: 'O=Partner Ltd' }, { dns: 'partner.example' }, { email: '.partner.example' }],
        excluded: [{ dn: 'O=Partner Ltd, OU=Admins' }, { dns: 'admin.partner.example' }, { email: 'root@mail.partner.example' }],
      }),
    ],
  });
  const partner = (cn: string) => `O=Partner Ltd, CN=${cn}`;
  const cases: Array<[string, Parameters<typeof createLeaf>[2], boolean]> = [
    ['a plain name inside', { subject: partner('a') }, true],
    ['case and spacing do not matter', { subject: 'O=partner   LTD, CN=b' }, true],
    ['an excluded OU', { subject: 'O=Partner Ltd, OU=Admins, CN=c' }, false],
    ['a permitted DNS name', { subject: partner('d'), san: [{ type: 'dns', value: 'host.partner.example' }] }, true],
    ['a DNS name outside', { subject: partner('e'), san: [{ type: 'dns', value: 'partner.example.evil' }] }, false],
    ['an excluded DNS name', { subject: partner('f'), san: [{ type: 'dns', value: 'x.admin.partner.example' }] }, false],
    ['a permitted mailbox', { subject: partner('g'), san: [{ type: 'email', value: 'g@mail.partner.example' }] }, true],
    ['a mailbox outside', { subject: partner('h'), san: [{ type: 'email', value: 'h@example.org' }] }, false],
    ['an excluded mailbox', { subject: partner('i'), san: [{ type: 'email', value: 'root@mail.partner.example' }] }, false],
    ['an emailAddress in the subject outside', { subject: 'O=Partner Ltd, CN=j, E=j@example.org' }, false],
    ['a directoryName alternative name outside', { subject: partner('k'), san: [{ type: 'dn', value: 'O=Example, CN=k' }] }, false],
  ];
  for (const [title, options, trusted] of cases) {
    const leaf = await createLeaf(constrained, 'x', options);
    const result = await verdict(gw, admin, bundle(leaf, constrained));
    t.is(result.trusted, trusted, `${title}: ${result.reason ?? 'trusted'}`);
  }
  // A constraint set below another only narrows: the upper authority's subtree still binds a lower one's leaves.
  const lower = await createIntermediate(constrained, 'lower CA', {
    subject: 'O=Partner Ltd, CN=Lower CA',
    extensions: [nameConstraints({ permitted: [{ dns: 'example' }] })],
  });
  const escaping = await createLeaf(lower, 'y', { subject: 'O=Example, CN=y' });
  t.false((await verdict(gw, admin, bundle(escaping, lower, constrained))).trusted);
});

test('attack: a name constraint on a form that is not processed (iPAddress) fails the path only when a certificate below carries that form', async (t) => {
  const { gw, admin, root } = await world(t);
  const constrained = await createIntermediate(root, 'ip CA', { extensions: [nameConstraints({ excluded: [{ ip: '10.0.0.0/8' }] })] });
  const withIp = await createLeaf(constrained, 'ip-leaf', { san: [{ type: 'ip', value: '192.0.2.1' }] });
  const result = await verdict(gw, admin, bundle(withIp, constrained));
  t.false(result.trusted);
  t.regex(result.reason ?? '', /not processed/);
  const withoutIp = await createLeaf(constrained, 'plain-leaf');
  t.true((await verdict(gw, admin, bundle(withoutIp, constrained))).trusted);
});

test('attack: an unknown critical extension on the leaf or on an authority is refused; a non-critical one is not', async (t) => {
  const { gw, admin, root } = await world(t);
  const criticalLeaf = await createLeaf(root, 'odd-leaf', { extensions: [unknownExtension()] });
  const refused = await login(gw, criticalLeaf.pem, criticalLeaf);
  t.is(refused.status, 401);
  t.is(refused.body.code, 'WRONG_CREDENTIAL');
  t.is((await gw.call('GET', '/api/principals/odd-leaf', { headers: bearer(admin) })).status, 404);
  t.regex((await verdict(gw, admin, criticalLeaf.pem)).reason ?? '', /critical extension/);

  const oddCa = await createIntermediate(root, 'odd CA', { extensions: [unknownExtension()] });
  const underOddCa = await createLeaf(oddCa, 'under-odd');
  t.is((await login(gw, bundle(underOddCa, oddCa), underOddCa)).status, 401);

  const tolerated = await createLeaf(root, 'tolerated', { extensions: [unknownExtension(false)] });
  const accepted = await login(gw, tolerated.pem, tolerated);
  t.is(accepted.status, 201);
  t.is(accepted.body.user, 'tolerated');
});

test('attack: a principal provisioned through one sub-CA is signed into through another sub-CA of the same root -> 409 PRINCIPAL_EXISTS until an administrator links the authority', async (t) => {
  const { gw, admin, root } = await world(t);
  const issuingA = await createIntermediate(root, 'issuing CA A');
  const issuingB = await createIntermediate(root, 'issuing CA B');
  const first = await createLeaf(issuingA, 'newcomer');
  t.is((await login(gw, bundle(first, issuingA), first)).status, 201);
  const view = await gw.call('GET', '/api/principals/newcomer', { headers: bearer(admin) });
  t.is(view.body.provisionedBy, idOf(issuingA), 'the issuing authority is recorded, not the root');

  const renewed = await createLeaf(issuingA, 'newcomer');
  const again = await login(gw, bundle(renewed, issuingA), renewed);
  t.is(again.status, 201, 'a renewed certificate of the same issuing authority');
  t.is(again.body.user, 'newcomer');

  const other = await createLeaf(issuingB, 'newcomer');
  const refused = await login(gw, bundle(other, issuingB), other);
  t.is(refused.status, 409);
  t.like(refused.body, { code: 'CONFLICT', reason: 'PRINCIPAL_EXISTS' });
  const certificates = await gw.call('GET', '/api/certificates?principal=newcomer', { headers: bearer(admin) });
  t.false(
    (certificates.body.items as Array<{ id: string }>).some((item) => item.id === idOf(other)),
    'the refused certificate was not enrolled',
  );

  // The administrator links authority B by enrolling one of its certificates to the principal.
  const link = await gw.call('POST', '/api/trust/enrollments', {
    headers: bearer(admin),
    body: { principal: 'newcomer', pem: bundle(other, issuingB) },
  });
  t.is(link.status, 201);
  const linked = await createLeaf(issuingB, 'newcomer');
  const through = await login(gw, bundle(linked, issuingB), linked);
  t.is(through.status, 201, 'a path through the linked authority signs in');
  t.is(through.body.user, 'newcomer');
});

test('a leaf issued by the root itself keeps the root as its issuing authority', async (t) => {
  const { gw, admin, root } = await world(t);
  const leaf = await createLeaf(root, 'direct');
  t.is((await login(gw, leaf.pem, leaf)).status, 201);
  t.is((await gw.call('GET', '/api/principals/direct', { headers: bearer(admin) })).body.provisionedBy, idOf(root));
  const intermediate = await createIntermediate(root, 'another CA');
  const viaIntermediate = await createLeaf(intermediate, 'direct');
  const refused = await login(gw, bundle(viaIntermediate, intermediate), viaIntermediate);
  t.is(refused.status, 409, 'a sub-CA of the same root is another authority');
  t.like(refused.body, { code: 'CONFLICT', reason: 'PRINCIPAL_EXISTS' });
});

test('an authority whose every path would fail (an unknown critical extension) is refused when registered -> 400', async (t) => {
  const { gw, admin } = await world(t);
  const odd = await createAuthority('odd root', { extensions: [unknownExtension()] });
  const reply = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: odd.pem } });
  t.is(reply.status, 400);
  t.is(reply.body.code, 'BAD_REQUEST');
  t.regex(reply.body.detail, /critical extension/);
  const list = await gw.call('GET', '/api/trust/authorities', { headers: bearer(admin) });
  t.false((list.body.items as Array<{ id: string }>).some((item) => item.id === idOf(odd)));
});
