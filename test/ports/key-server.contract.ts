import test from 'ava';
import { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServer } from '../../src/ports/key-server.port.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { makeSigner } from '../_support/proof-builder.js';

/** The principals every key server under the contract is seeded with (passwords `<name>-pw`). */
export const CONTRACT_SEED = {
  principals: [
    ...['alice', 'bob', 'carol'].map((name) => ({ name, kind: 'user' as const, password: `${name}-pw` })),
    { name: 'admin', kind: 'user' as const, password: 'admin-pw', roles: ['admin'] },
    { name: 'svc', kind: 'service' as const, password: 'svc-pw' },
  ],
};

/**
 * A key server under test, seeded with CONTRACT_SEED. `expireTokens`
 * makes every token issued so far invalid by letting the server's time pass its token lifetime.
 */
export interface KeyServerUnderTest {
  readonly keyServer: KeyServer;
  expireTokens(): Promise<void>;
  close(): Promise<void>;
}

export type KeyServerFactory = () => Promise<KeyServerUnderTest>;

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
    const grantee = await alice.grant(ttag, 'bob', ['read', 'export']);
    t.is(grantee.user, 'bob');
    t.deepEqual((await bob.exportKey(ttag)).key, blob.key);
    const acl = await alice.readAcl(ttag);
    t.deepEqual(acl.entries.map((e) => [e.principal.user, [...e.rights]]), [['bob', ['read', 'export']]]);
    await alice.revoke(ttag, 'bob');
    t.is(await codeOf(bob.exportKey(ttag)), 'ACL_DENIED');
    t.deepEqual((await alice.readAcl(ttag)).entries, []);
    for (const c of [alice, bob]) await c.close();
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
    const ks = await make();
    const first = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await first.signOut();
    t.is(await codeOf(first.whoami()), 'SESSION_EXPIRED');
    const second = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await second.whoami();
    await ks.expireTokens();
    t.is(await codeOf(second.whoami()), 'SESSION_EXPIRED');
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
    t.is(await codeOf(scoped.readAcl(inside)), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.mintScoped({ objects: [inside], ttlMs: 60_000 })), 'OUT_OF_SCOPE');
    await ks.close();
  });

  test(title('only a principal holding session.delegate mints delegated tokens'), async (t) => {
    const ks = await make();
    const svc = await as(ks, 'svc');
    const minted = await svc.mintDelegated({ principal: 'alice' });
    t.is(minted.actingFor, 'svc');
    const delegated = await ks.keyServer.connect(minted.token);
    t.is((await delegated.whoami()).user, 'alice');
    const alice = await as(ks, 'alice');
    t.is(await codeOf(alice.mintDelegated({ principal: 'bob' })), 'ROLE_DENIED');
    t.is(await codeOf(svc.mintDelegated({ principal: 'nobody' })), 'NOT_FOUND');
    await ks.close();
  });

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
