import test from 'ava';
import { createAuthority, createLeaf, signChallenge, type TestCertificate } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner, type ProofSigner } from '../_support/proof-builder.js';

// A delegated session stands on its service's credentials: when an administrator changes any of them
// (the password, the sender key, the enrolled certificate, or the authority it came through), every
// session the service delegated ends with it, not only the service's own.
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

interface BoundService {
  readonly admin: string;
  readonly authority: TestCertificate;
  readonly authorityId: string;
  readonly signer: ProofSigner;
  readonly session: string;
}

/** svc signs in with an enrolled certificate and a registered sender key, delegating for alice. */
async function boundService(gw: TestGateway): Promise<BoundService> {
  const admin = await gw.login('admin');
  const authority = await createAuthority('svc CA');
  const leaf = await createLeaf(authority, 'svc');
  const signer = await makeSigner('ES256');
  const trusted = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'svc', pem: leaf.pem } });
  await gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk: signer.publicJwk } });
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(admin), body: { delegates: ['alice'] } });
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  if (login.status !== 201) throw new Error(`svc login: ${login.status} ${login.text}`);
  return { admin, authority, authorityId: trusted.body.id as string, signer, session: login.body.sessionId as string };
}

type Reset = (gw: TestGateway, svc: BoundService) => Promise<number>;

const resets: [string, Reset, Record<string, unknown>][] = [
  [
    'resets its password',
    async (gw, svc) =>
      (await gw.call('PUT', '/api/principals/svc/password', { headers: bearer(svc.admin), body: { password: 'reset-password-9' } })).status,
    { code: 'SESSION_UNKNOWN' },
  ],
  [
    'replaces its sender key',
    async (gw, svc) =>
      (
        await gw.call('PUT', '/api/principals/svc/sender-key', {
          headers: bearer(svc.admin),
          body: { jwk: (await makeSigner('ES256')).publicJwk },
        })
      ).status,
    { code: 'SESSION_UNKNOWN' },
  ],
  [
    'enrolls another certificate for it',
    async (gw, svc) => {
      const leaf = await createLeaf(svc.authority, 'svc');
      return (await gw.call('POST', '/api/trust/enrollments', { headers: bearer(svc.admin), body: { principal: 'svc', pem: leaf.pem } }))
        .status;
    },
    { code: 'SESSION_UNKNOWN' },
  ],
  [
    'removes the authority its certificate came through',
    async (gw, svc) => (await gw.call('DELETE', `/api/trust/authorities/${svc.authorityId}`, { headers: bearer(svc.admin) })).status,
    { code: 'SESSION_EXPIRED', reauth: true },
  ],
];

for (const [change, reset, ended] of resets) {
  test(`attack: an administrator ${change} -> the service's delegated session is refused (401)`, async (t) => {
    const gw = await startGateway(t);
    const svc = await boundService(gw);
    const minted = await gw.bound(svc.signer, 'POST', '/api/session/delegated', { bearer: svc.session }, { principal: 'alice' });
    t.is(minted.status, 201, minted.text);
    const use = () => gw.bound(svc.signer, 'POST', '/api/keys', { bearer: minted.body.sessionId }, {});
    t.is((await use()).status, 201, 'the delegated session works before the change');
    t.true([200, 201, 204].includes(await reset(gw, svc)), `the change itself (${change}) failed`);
    const dead = await use();
    t.is(dead.status, 401, dead.text);
    t.like(dead.body, ended);
    t.is((await use()).status, 401, 'and stays refused');
  });
}
