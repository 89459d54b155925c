import test from 'ava';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { srpCreateVerifier } from '../../src/crypto/srp/srp-verifier.js';
import { Secret } from '../../src/domain/secret/secret.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { makeSigner } from '../_support/proof-builder.js';
import type { KeyServerFactory, KeyServerUnderTest } from './key-server-under-test.js';

/** The principals every key server under the contract is seeded with (passwords `<name>-pw`). */
export const CONTRACT_SEED = {
  principals: [
    ...['alice', 'bob', 'carol'].map((name) => ({ name, kind: 'user' as const, password: `${name}-pw` })),
    { name: 'admin', kind: 'user' as const, password: 'admin-pw', roles: ['admin'] },
    { name: 'svc', kind: 'service' as const, password: 'svc-pw' },
  ],
};

export type { KeyServerFactory, KeyServerUnderTest } from './key-server-under-test.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

/** The KeyServer contract (src/ports/key-server.port.ts), run against one adapter. */
export function keyServerContract(name: string, make: KeyServerFactory): void {
  const title = (behaviour: string) => `${name} key server: ${behaviour}`;

  test(title('logs in with the right password and names the principal'), async (t) => {
    const ks = await make();
    const login = await ks.keyServer.login('alice', new Secret('alice-pw'));
    t.is(login.identity.user, 'alice');
    t.regex(login.identity.principalId, /^[0-9a-f]{16}$/);
    t.true(Number.isInteger(login.identity.systemId));
    const connection = await ks.keyServer.connect(login.token);
    t.deepEqual(await connection.whoami(), login.identity);
    await connection.close();
    await ks.close();
  });

  test(title('refuses a wrong password and an unknown user alike'), async (t) => {
    const ks = await make();
    t.is(await codeOf(ks.keyServer.login('alice', new Secret('nope'))), 'WRONG_CREDENTIAL');
    t.is(await codeOf(ks.keyServer.login('mallory', new Secret('nope'))), 'WRONG_CREDENTIAL');
    await ks.close();
  });

  test(title('refuses an invalid token as SESSION_EXPIRED'), async (t) => {
    const ks = await make();
    const connection = await ks.keyServer.connect(new Secret('not-a-token'));
    t.is(await codeOf(connection.whoami()), 'SESSION_EXPIRED');
    await connection.close();
    await ks.close();
  });

  test(title('generates, exports to owner and grantee, and enforces the ACL'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
    const { ttag } = await alice.generateKey({ keyLen: 32 });
    t.true(Buffer.from(ttag, 'base64').length >= 16);
    const blob = await alice.exportKey(ttag);
    t.is(blob.nid, 427);
    t.is(blob.key.length, 32);
    t.is(await codeOf(bob.exportKey(ttag)), 'ACL_DENIED');
    t.is(await codeOf(bob.grant(ttag, 'carol', ['export'])), 'ACL_DENIED');
    const grant = await alice.grant(ttag, 'bob', ['read', 'export']);
    t.is(grant.grantee.user, 'bob');
    t.deepEqual((await bob.exportKey(ttag)).key, blob.key);
    const acl = await alice.readAcl(ttag);
    t.deepEqual(
      acl.entries.map((e) => [e.principal.user, [...e.rights]]),
      [['bob', ['read', 'export']]],
    );
    await alice.revoke(ttag, 'bob');
    t.is(await codeOf(bob.exportKey(ttag)), 'ACL_DENIED');
    t.deepEqual((await alice.readAcl(ttag)).entries, []);
    for (const c of [alice, bob]) await c.close();
    await ks.close();
  });

  test(title("keeps each key's ACL revision: a grant or revoke answers the one it produced, a read the current one"), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const { ttag } = await alice.generateKey({ keyLen: 16 });
    const other = (await alice.generateKey({ keyLen: 16 })).ttag;
    t.is((await alice.readAcl(ttag)).revision, 0, 'a new key is at revision 0');
    const first = await alice.grant(ttag, 'bob', ['read']);
    t.is(first.revision, 1);
    const second = await alice.grant(ttag, 'bob', ['read']);
    t.is(second.revision, 2, 'every write applied is a revision of its own, even one that changes nothing');
    t.is((await alice.revoke(ttag, 'bob')).revision, 3);
    t.is((await alice.revoke(ttag, 'bob')).revision, 4, 'an idempotent revoke is still a write');
    t.like(await alice.readAcl(ttag), { entries: [], revision: 4 });
    await alice.expireKey(ttag);
    t.is((await alice.readAcl(ttag)).revision, 4, 'a change that is not to the ACL leaves its revision alone');
    t.is((await alice.readAcl(other)).revision, 0, 'revisions are per key');
    t.is((await alice.grant(other, 'carol', ['mac'])).revision, 1);
    await alice.close();
    await ks.close();
  });

  test(title('answers NOT_FOUND for an unknown key or grantee'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    t.is(await codeOf(alice.exportKey(Buffer.alloc(24, 9).toString('base64'))), 'NOT_FOUND');
    const { ttag } = await alice.generateKey({ keyLen: 16 });
    t.is(await codeOf(alice.grant(ttag, 'nobody', ['export'])), 'NOT_FOUND');
    await alice.close();
    await ks.close();
  });

  test(title('a token stops working after sign-out and after its lifetime'), async (t) => {
    const ks = await make({ expiring: true });
    const first = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await first.signOut();
    t.is(await codeOf(first.whoami()), 'SESSION_EXPIRED');
    const second = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await second.whoami();
    await ks.expireTokens();
    t.is(await codeOf(second.whoami()), 'SESSION_EXPIRED');
    await ks.close();
  });

  test(title("keeps a key's view, runs cryptography under it, and refuses an expired key"), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
    const { ttag } = await alice.generateKey({ keyLen: 24, label: 'contract' });
    t.like(await alice.readKey(ttag), { ttag, keyLen: 24, label: 'contract', state: 'active', owner: { user: 'alice' } });
    const sealed = await alice.encrypt(ttag, { plaintext: Buffer.from('hello'), aad: Buffer.from('a') });
    t.is(sealed.alg, 'A192GCM');
    t.deepEqual(
      await alice.decrypt(ttag, { ciphertext: sealed.ciphertext, iv: sealed.iv, authTag: sealed.authTag, aad: Buffer.from('a') }),
      {
        plaintext: Buffer.from('hello'),
      },
    );
    t.is(await codeOf(alice.decrypt(ttag, { ciphertext: sealed.ciphertext, iv: sealed.iv, authTag: sealed.authTag })), 'DECRYPT_FAILED');
    const { mac } = await alice.mac(ttag, Buffer.from('data'));
    t.deepEqual(await alice.verifyMac(ttag, { data: Buffer.from('data'), mac }), { valid: true });
    t.deepEqual(await alice.verifyMac(ttag, { data: Buffer.from('datb'), mac }), { valid: false });
    t.is(await codeOf(bob.mac(ttag, Buffer.from('data'))), 'ACL_DENIED');
    await alice.grant(ttag, 'bob', ['mac']);
    t.deepEqual([...(await bob.accessRights(ttag))], ['mac']);
    t.is((await alice.expireKey(ttag)).state, 'expired');
    t.is(await codeOf(alice.exportKey(ttag)), 'KEY_EXPIRED');
    t.is(await codeOf(bob.mac(ttag, Buffer.from('data'))), 'KEY_EXPIRED');
    for (const c of [alice, bob]) await c.close();
    await ks.close();
  });

  test(
    title('says whether a creation replayed; withdrawing its own creation expires the key and forgets its Idempotency-Key'),
    async (t) => {
      const ks = await make();
      const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
      const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
      const claim = { key: 'contract-1', fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg' };
      const first = await alice.generateKey({ keyLen: 16 }, claim);
      t.false(first.replayed);
      t.is(await codeOf(bob.withdrawKey(first.ttag, claim.key)), 'ACL_DENIED', "another's key is not withdrawn");
      await alice.withdrawKey(first.ttag, claim.key);
      t.is((await alice.readKey(first.ttag)).state, 'expired');
      const fresh = await alice.generateKey({ keyLen: 16 }, claim);
      t.deepEqual(fresh, { ttag: fresh.ttag, replayed: false });
      t.not(fresh.ttag, first.ttag, 'the withdrawn creation is not replayed');
      t.deepEqual(await alice.generateKey({ keyLen: 16 }, claim), { ttag: fresh.ttag, replayed: true });
      await alice.withdrawKey(fresh.ttag, claim.key);
      t.is((await alice.readKey(fresh.ttag)).state, 'active', 'a creation whose answer a replay holds is kept by its undo');
      t.deepEqual(await alice.generateKey({ keyLen: 16 }, claim), { ttag: fresh.ttag, replayed: true }, 'and its record stays');
      await alice.expireKey(fresh.ttag);
      t.is(await codeOf(alice.generateKey({ keyLen: 16 }, claim)), 'KEY_EXPIRED', 'a replay onto a key expired since is refused');
      for (const c of [alice, bob]) await c.close();
      await ks.close();
    },
  );

  test(title('manages principals, groups and roles for admin, and refuses them to a user'), async (t) => {
    const ks = await make();
    const admin = await ks.keyServer.connect((await ks.keyServer.login('admin', new Secret('admin-pw'))).token);
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const record = srpCreateVerifier('dora', 'dora-pw', new CryptoRandom());
    const verifier = { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') };
    t.like(await admin.createPrincipal({ name: 'dora', kind: 'user', displayName: 'Dora', verifier }), { name: 'dora', roles: ['user'] });
    t.is((await ks.keyServer.login('dora', new Secret('dora-pw'))).identity.user, 'dora');
    await admin.createPrincipal({ name: 'team', kind: 'group' });
    await admin.addGroupMember('team', 'dora');
    t.deepEqual(
      (await admin.groupMembers('team')).items.map((p) => p.name),
      ['dora'],
    );
    t.deepEqual(
      (await admin.principalGroups('dora')).items.map((p) => p.name),
      ['team'],
    );
    const first = await admin.listPrincipals({ limit: 2 });
    t.deepEqual(
      first.items.map((p) => p.name),
      ['admin', 'alice'],
    );
    const rest = await admin.listPrincipals({ limit: 500, cursor: first.next });
    // A key server shared by several tests (a daemon) may hold principals of other tests too.
    const names = [...first.items, ...rest.items].map((p) => p.name);
    t.deepEqual(names, [...new Set(names)].sort(), 'pages follow on in name order, nothing twice');
    for (const expected of ['bob', 'carol', 'dora', 'svc', 'team']) t.true(names.includes(expected), expected);
    t.deepEqual(
      (await admin.listPrincipals({ limit: 500, kind: 'group' })).items.map((p) => p.kind).filter((k) => k !== 'group'),
      [],
    );
    t.deepEqual(await admin.putRole('reader', ['keys.read']), { name: 'reader', operations: ['keys.read'] });
    t.like(await admin.updatePrincipal('dora', { roles: ['reader'] }), { roles: ['reader'] });
    t.is(await codeOf(alice.createPrincipal({ name: 'eve', kind: 'user' })), 'ROLE_DENIED');
    t.is(await codeOf(alice.putRole('user', [])), 'ROLE_DENIED');
    t.is(await codeOf(admin.putRole('reader', ['keys.steal'])), 'BAD_REQUEST');
    await admin.deletePrincipal('dora');
    t.is(await codeOf(admin.readPrincipal('dora')), 'NOT_FOUND');
    t.is(await codeOf(ks.keyServer.login('dora', new Secret('dora-pw'))), 'WRONG_CREDENTIAL');
    for (const c of [admin, alice]) await c.close();
    await ks.close();
  });

  test(title("answers the caller's operations through its roles and its groups' roles"), async (t) => {
    const ks = await make();
    const admin = await ks.keyServer.connect((await ks.keyServer.login('admin', new Secret('admin-pw'))).token);
    const record = srpCreateVerifier('erin', 'erin-pw', new CryptoRandom());
    await admin.createPrincipal({
      name: 'erin',
      kind: 'user',
      verifier: { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') },
    });
    await admin.createPrincipal({ name: 'readers', kind: 'group', roles: ['auditor'] });
    const erin = await ks.keyServer.connect((await ks.keyServer.login('erin', new Secret('erin-pw'))).token);
    const own = await erin.heldOperations();
    t.false(own.scoped);
    t.true(own.operations.includes('keys.create'));
    t.false(own.operations.includes('audit.read'));
    await admin.addGroupMember('readers', 'erin');
    t.true((await erin.heldOperations()).operations.includes('audit.read'), "a group's role counts for its members");
    await admin.removeGroupMember('readers', 'erin');
    t.deepEqual((await admin.groupMembers('readers')).items, []);
    t.false((await erin.heldOperations()).operations.includes('audit.read'));
    t.true((await admin.heldOperations()).operations.includes('audit.read'));
    t.deepEqual((await admin.readRole('auditor')).operations.includes('audit.read'), true);
    t.true((await admin.listRoles()).items.some((r) => r.name === 'auditor'));
    const next = srpCreateVerifier('erin', 'erin-new', new CryptoRandom());
    await admin.setPassword('erin', { salt: next.salt.toString('base64'), verifier: next.verifier.toString('base64') });
    t.is(await codeOf(ks.keyServer.login('erin', new Secret('erin-pw'))), 'WRONG_CREDENTIAL');
    t.is((await ks.keyServer.login('erin', new Secret('erin-new'))).identity.user, 'erin');
    t.like(await admin.updatePrincipal('erin', { disabled: true }), { disabled: true });
    t.is(await codeOf(erin.whoami()), 'SESSION_EXPIRED', 'disabling a principal ends its tokens');
    const config = await admin.serverConfig();
    t.false(JSON.stringify(config).includes('admin-pw'), 'no secret in the configuration');
    for (const c of [admin, erin]) await c.close();
    await ks.close();
  });

  test(title('carries data under cryptography up to the largest request body'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const { ttag } = await alice.generateKey({ keyLen: 32, label: 'bulk', expiresAt: Date.now() + 3_600_000 });
    t.like(await alice.readKey(ttag), { label: 'bulk' });
    t.truthy((await alice.readKey(ttag)).expiresAt);
    const plaintext = Buffer.alloc(700 * 1024, 7);
    const sealed = await alice.encrypt(ttag, { plaintext });
    t.deepEqual((await alice.decrypt(ttag, sealed)).plaintext, plaintext);
    const { mac } = await alice.mac(ttag, plaintext);
    t.deepEqual(await alice.verifyMac(ttag, { data: plaintext, mac }), { valid: true });
    await alice.close();
    await ks.close();
  });

  test(title('keeps trusted authorities and enrollments, and answers certificate and server reads'), async (t) => {
    const ks = await make();
    const admin = await ks.keyServer.connect((await ks.keyServer.login('admin', new Secret('admin-pw'))).token);
    // Valid for decades either side: the key server under test may run on a manual clock.
    const validity = { notBefore: new Date('2000-01-01'), notAfter: new Date('2099-01-01') };
    const authority = await createAuthority('contract CA', validity);
    // A key server shared by several tests (a daemon) may hold other authorities and enrollments.
    const leaf = await createLeaf(authority, 'bob-cert', validity);
    t.like(await admin.parseCertificate(leaf.pem), { subject: 'CN=bob-cert' });
    t.is(await codeOf(admin.parseCertificate('garbage')), 'CERTIFICATE_MALFORMED');
    t.like(await admin.verifyCertificate(leaf.pem), { trusted: false });
    const other = await createLeaf(await createAuthority('untrusted CA', validity), 'bob-other', validity);
    const refused = await admin.enrollCertificate('bob', other.pem).catch((error: { code?: string; reason?: string }) => error);
    t.like(refused, { code: 'CONFLICT' });
    t.truthy((refused as { reason?: string }).reason, 'a refused enrollment says why');
    const ca = await admin.addTrustAuthority(authority.pem);
    t.true((await admin.listTrustAuthorities()).items.some((c) => c.id === ca.id));
    const enrolled = await admin.enrollCertificate('bob', leaf.pem);
    t.like(await admin.readCertificate(enrolled.id), { principal: 'bob' });
    t.deepEqual(await admin.verifyCertificate(leaf.pem), { trusted: true, chain: [enrolled.id, ca.id] });
    t.like(await admin.listCertificates({ limit: 10, principal: 'bob' }), { complete: true, items: [{ id: enrolled.id }] });
    await admin.removeTrustAuthority(ca.id);
    t.false((await admin.listTrustAuthorities()).items.some((c) => c.id === ca.id));
    t.like(await admin.verifyCertificate(leaf.pem), { trusted: false });
    t.is(typeof (await admin.serverVersion()).keyServer, 'string');
    t.like(await admin.setParameter('maxPendingLogins', 50), { name: 'maxPendingLogins', value: 50 });
    t.true((await admin.listParameters()).items.some((p) => p.name === 'maxPendingLogins' && p.value === 50));
    t.is(await codeOf(admin.setParameter('maxPendingLogins', 'many')), 'BAD_REQUEST');
    t.is(await codeOf(admin.setParameter('nope', 1)), 'NOT_FOUND');
    await admin.close();
    await ks.close();
  });

  test(title('reports a SHA-256 fingerprint and answers ping'), async (t) => {
    const ks = await make();
    t.regex(ks.keyServer.fingerprint(), /^[0-9a-f]{64}$/);
    await t.notThrowsAsync(ks.keyServer.ping());
    await ks.close();
  });

  async function as(ks: KeyServerUnderTest, user: string) {
    return ks.keyServer.connect((await ks.keyServer.login(user, new Secret(`${user}-pw`))).token);
  }

  test(title('certificate login: a trusted, enrolled leaf signs the challenge; a challenge is single use'), async (t) => {
    const ks = await make();
    const admin = await as(ks, 'admin');
    const authority = await createAuthority('contract CA');
    const leaf = await createLeaf(authority, 'carol-cert');
    t.is(await codeOf(admin.addTrustAuthority(leaf.pem)), 'BAD_REQUEST', 'a leaf is not an authority');
    t.is((await admin.addTrustAuthority(authority.pem)).id.length, 64);
    const enrolled = await admin.enrollCertificate('carol', leaf.pem);
    t.is(enrolled.principal, 'carol');
    const signer = await makeSigner('RS256');
    const { jkt } = await admin.putSenderKey('carol', signer.publicJwk);
    t.is(jkt, signer.jkt);
    const challenge = await ks.keyServer.certificateChallenge(leaf.pem);
    t.is(Buffer.from(challenge.challenge, 'base64url').length, 32);
    const signature = Buffer.from(signChallenge(leaf, challenge.challenge), 'base64url');
    const login = await ks.keyServer.certificateLogin(challenge.challengeId, signature);
    t.is(login.identity.user, 'carol');
    t.is(login.jkt, signer.jkt);
    t.is(await codeOf(ks.keyServer.certificateLogin(challenge.challengeId, signature)), 'WRONG_CREDENTIAL');
    const other = await ks.keyServer.certificateChallenge(leaf.pem);
    t.is(await codeOf(ks.keyServer.certificateLogin(other.challengeId, Buffer.alloc(256, 1))), 'WRONG_CREDENTIAL');
    await admin.close();
    await ks.close();
  });

  test(title('a scoped token reaches only its keys and rights'), async (t) => {
    const ks = await make();
    const alice = await as(ks, 'alice');
    const inside = (await alice.generateKey({ keyLen: 16 })).ttag;
    const outside = (await alice.generateKey({ keyLen: 16 })).ttag;
    const minted = await alice.mintScoped({ objects: [inside], rights: ['export'], ttlMs: 60_000 });
    t.deepEqual(minted.scope, { [inside]: ['export'] });
    const scoped = await ks.keyServer.connect(minted.token);
    t.is((await scoped.exportKey(inside)).key.length, 16);
    t.is(await codeOf(scoped.exportKey(outside)), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.mac(inside, Buffer.alloc(1))), 'OUT_OF_SCOPE', 'a right the token was not given');
    t.is(await codeOf(scoped.encrypt(outside, { plaintext: Buffer.alloc(1) })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.readAcl(inside)), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.generateKey({ keyLen: 16 })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.mintScoped({ objects: [inside], ttlMs: 60_000 })), 'OUT_OF_SCOPE');
    t.like(await scoped.heldOperations(), { scoped: true });
    await ks.close();
  });

  test(title('only a principal holding session.delegate mints delegated tokens'), async (t) => {
    const ks = await make();
    const svc = await as(ks, 'svc');
    t.is(await codeOf(svc.mintDelegated({ principal: 'alice' })), 'DELEGATION_DENIED', 'the delegates list is empty by default');
    await (await as(ks, 'admin')).updatePrincipal('svc', { delegates: ['alice', 'admin'] });
    t.is(await codeOf(svc.mintDelegated({ principal: 'admin' })), 'DELEGATION_DENIED', 'admin is never delegable');
    const minted = await svc.mintDelegated({ principal: 'alice' });
    t.is(minted.actingFor, 'svc');
    const delegated = await ks.keyServer.connect(minted.token);
    t.is((await delegated.whoami()).user, 'alice');
    const alice = await as(ks, 'alice');
    t.is(await codeOf(alice.mintDelegated({ principal: 'bob' })), 'ROLE_DENIED');
    t.is(await codeOf(svc.mintDelegated({ principal: 'nobody' })), 'NOT_FOUND');
    await ks.close();
  });

  // A delegated token stands on its service's credentials: any change of them ends it.
  interface Credentials {
    readonly svc: string;
    readonly authorityId: string;
    /** A second leaf of the service, issued by the same authority. */
    readonly spareLeaf: string;
    readonly senderKey: Readonly<Record<string, string>>;
  }
  type Change = (admin: Awaited<ReturnType<typeof as>>, credentials: Credentials) => Promise<unknown>;
  const credentialChanges: [string, Change][] = [
    ['its password changes', (admin, { svc }) => admin.setPassword(svc, verifierOf(svc, `${svc}-new-pw`))],
    ['its sender key changes', (admin, { svc, senderKey }) => admin.putSenderKey(svc, senderKey)],
    ['a certificate is enrolled to it', (admin, { svc, spareLeaf }) => admin.enrollCertificate(svc, spareLeaf)],
    ['the authority its certificate came through is removed', (admin, { authorityId }) => admin.removeTrustAuthority(authorityId)],
  ];
  const verifierOf = (name: string, password: string) => {
    const record = srpCreateVerifier(name, password, new CryptoRandom());
    return { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') };
  };
  for (const [index, [change, apply]] of credentialChanges.entries()) {
    test(title(`a token delegated by a service ends when ${change}`), async (t) => {
      // A service of its own: a daemon's state is shared by the tests running beside this one. The
      // slow parts come first, so that the tokens below are used well within their lifetime.
      const svc = `svc-change-${index}`;
      const authority = await createAuthority(`${svc} CA`);
      const [leaf, spare] = [await createLeaf(authority, svc), await createLeaf(authority, svc)];
      const senderKey = (await makeSigner('ES256')).publicJwk;
      const verifier = verifierOf(svc, `${svc}-pw`);
      const ks = await make();
      const admin = await as(ks, 'admin');
      await admin.createPrincipal({ name: svc, kind: 'service', verifier });
      const authorityId = (await admin.addTrustAuthority(authority.pem)).id;
      await admin.enrollCertificate(svc, leaf.pem);
      await admin.updatePrincipal(svc, { delegates: ['alice'] });
      const minted = await (await as(ks, svc)).mintDelegated({ principal: 'alice' });
      const alice = await as(ks, 'alice');
      t.is((await (await ks.keyServer.connect(minted.token)).whoami()).user, 'alice');
      await apply(admin, { svc, authorityId, spareLeaf: spare.pem, senderKey });
      t.is(await codeOf((await ks.keyServer.connect(minted.token)).whoami()), 'SESSION_EXPIRED');
      t.is((await alice.whoami()).user, 'alice', "the target's own token lives on");
      await ks.close();
    });
  }

  test(title('the provisioning policy reads and writes; an unknown parameter is NOT_FOUND'), async (t) => {
    const ks = await make();
    const admin = await as(ks, 'admin');
    t.is((await admin.readPolicy()).autoProvision, false);
    t.is((await admin.setPolicy('autoProvision', true)).autoProvision, true);
    t.is(await codeOf(admin.setPolicy('colour', 'blue')), 'NOT_FOUND');
    t.is(await codeOf(admin.setPolicy('nameAttribute', 'O')), 'BAD_REQUEST');
    t.is((await admin.setPolicy('autoProvision', false)).autoProvision, false);
    const alice = await as(ks, 'alice');
    t.is(await codeOf(alice.readPolicy()), 'ROLE_DENIED');
    await ks.close();
  });
}
