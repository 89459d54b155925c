import test from 'ava';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
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
    t.deepEqual(await connection.call('whoami', {}), login.identity);
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
    t.is(await codeOf(connection.call('whoami', {})), 'SESSION_EXPIRED');
    await connection.close();
    await ks.close();
  });

  test(title("a gateway connection runs the gateway calls with no user's token, and nothing else"), async (t) => {
    const ks = await make();
    const connection = await ks.keyServer.connectAsGateway();
    t.deepEqual(await connection.call('claimKeyDestructions', {}), { items: [] });
    t.is(await connection.call('confirmKeyDestruction', { ttag: 'AAAA' }), null);
    // Refused: in process as a missing token is (SESSION_EXPIRED); a daemon's SESSION_REQUIRED is no code of the port's.
    const refusals = ['SESSION_EXPIRED', 'KEY_SERVER_FAILED'];
    t.true(refusals.includes((await codeOf(connection.call('whoami', {})))!));
    t.true(refusals.includes((await codeOf(connection.call('readKey', { ttag: 'AAAA' })))!));
    await connection.close();
    await ks.close();
  });

  test(title('generates, exports to owner and grantee, and enforces the ACL'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
    const { ttag } = await alice.call('generateKey', { keyLen: 32 });
    t.true(Buffer.from(ttag, 'base64').length >= 16);
    const blob = await alice.call('exportKey', { ttag });
    t.is(blob.nid, 427);
    t.is(blob.key.length, 32);
    t.is(await codeOf(bob.call('exportKey', { ttag })), 'ACL_DENIED');
    t.is(await codeOf(bob.call('grant', { ttag, principal: 'carol', rights: ['export'] })), 'ACL_DENIED');
    const grant = await alice.call('grant', { ttag, principal: 'bob', rights: ['read', 'export'] });
    t.is(grant.grantee.user, 'bob');
    t.deepEqual((await bob.call('exportKey', { ttag })).key, blob.key);
    const acl = await alice.call('readAcl', { ttag });
    t.deepEqual(
      acl.entries.map((e) => [e.principal.user, [...e.rights]]),
      [['bob', ['read', 'export']]],
    );
    await alice.call('revoke', { ttag, principal: 'bob' });
    t.is(await codeOf(bob.call('exportKey', { ttag })), 'ACL_DENIED');
    t.deepEqual((await alice.call('readAcl', { ttag })).entries, []);
    for (const c of [alice, bob]) await c.close();
    await ks.close();
  });

  test(title("keeps each key's ACL revision: a grant or revoke answers the one it produced, a read the current one"), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    const other = (await alice.call('generateKey', { keyLen: 16 })).ttag;
    t.is((await alice.call('readAcl', { ttag })).revision, 0, 'a new key is at revision 0');
    const first = await alice.call('grant', { ttag, principal: 'bob', rights: ['read'] });
    t.is(first.revision, 1);
    const second = await alice.call('grant', { ttag, principal: 'bob', rights: ['read'] });
    t.is(second.revision, 2, 'every write applied is a revision of its own, even one that changes nothing');
    t.is((await alice.call('revoke', { ttag, principal: 'bob' })).revision, 3);
    t.is((await alice.call('revoke', { ttag, principal: 'bob' })).revision, 4, 'an idempotent revoke is still a write');
    t.like(await alice.call('readAcl', { ttag }), { entries: [], revision: 4 });
    await alice.call('expireKey', { ttag });
    t.is((await alice.call('readAcl', { ttag })).revision, 4, 'a change that is not to the ACL leaves its revision alone');
    t.is((await alice.call('readAcl', { ttag: other })).revision, 0, 'revisions are per key');
    t.is((await alice.call('grant', { ttag: other, principal: 'carol', rights: ['mac'] })).revision, 1);
    await alice.close();
    await ks.close();
  });

  test(title('answers NOT_FOUND for an unknown key or grantee'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    t.is(await codeOf(alice.call('exportKey', { ttag: Buffer.alloc(24, 9).toString('base64') })), 'NOT_FOUND');
    const { ttag } = await alice.call('generateKey', { keyLen: 16 });
    t.is(await codeOf(alice.call('grant', { ttag, principal: 'nobody', rights: ['export'] })), 'NOT_FOUND');
    await alice.close();
    await ks.close();
  });

  test(title('a token stops working after sign-out and after its lifetime'), async (t) => {
    const ks = await make({ expiring: true });
    const first = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await first.call('revokeToken', {});
    t.is(await codeOf(first.call('whoami', {})), 'SESSION_EXPIRED');
    const second = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    await second.call('whoami', {});
    await ks.expireTokens();
    t.is(await codeOf(second.call('whoami', {})), 'SESSION_EXPIRED');
    await ks.close();
  });

  test(
    title("keeps a key's view, runs cryptography under it, refuses a disabled key until it is enabled, and an expired key"),
    async (t) => {
      const ks = await make();
      const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
      const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
      const { ttag } = await alice.call('generateKey', { keyLen: 24, label: 'contract' });
      t.like(await alice.call('readKey', { ttag }), { ttag, keyLen: 24, label: 'contract', state: 'active', owner: { user: 'alice' } });
      const sealed = await alice.call('encrypt', { ttag, request: { plaintext: Buffer.from('hello'), aad: Buffer.from('a') } });
      t.is(sealed.alg, 'A192GCM');
      t.deepEqual(
        await alice.call('decrypt', {
          ttag,
          request: { ciphertext: sealed.ciphertext, iv: sealed.iv, authTag: sealed.authTag, aad: Buffer.from('a') },
        }),
        {
          plaintext: Buffer.from('hello'),
        },
      );
      t.is(
        await codeOf(alice.call('decrypt', { ttag, request: { ciphertext: sealed.ciphertext, iv: sealed.iv, authTag: sealed.authTag } })),
        'DECRYPT_FAILED',
      );
      const { mac } = await alice.call('mac', { ttag, data: Buffer.from('data') });
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: Buffer.from('data'), mac } }), { valid: true });
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: Buffer.from('datb'), mac } }), { valid: false });
      t.is(await codeOf(bob.call('mac', { ttag, data: Buffer.from('data') })), 'ACL_DENIED');
      await alice.call('grant', { ttag, principal: 'bob', rights: ['mac'] });
      t.deepEqual(await bob.call('accessRights', { ttag }), ['mac']);
      // A disabled key refuses export and cryptography, its grantee's too, and reads as it is (docs/spec.md §4.6).
      t.is(await codeOf(bob.call('disableKey', { ttag })), 'ACL_DENIED');
      t.is((await alice.call('disableKey', { ttag })).state, 'disabled');
      t.is((await alice.call('disableKey', { ttag })).state, 'disabled', 'disabling again changes nothing');
      t.is(await codeOf(alice.call('exportKey', { ttag })), 'KEY_DISABLED');
      t.is(await codeOf(bob.call('mac', { ttag, data: Buffer.from('data') })), 'KEY_DISABLED');
      t.is((await alice.call('readKey', { ttag })).state, 'disabled');
      t.is((await alice.call('enableKey', { ttag })).state, 'active');
      t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: Buffer.from('data'), mac } }), { valid: true });
      t.is((await alice.call('expireKey', { ttag })).state, 'expired');
      t.is(await codeOf(alice.call('enableKey', { ttag })), 'KEY_EXPIRED');
      t.is(await codeOf(alice.call('exportKey', { ttag })), 'KEY_EXPIRED');
      t.is(await codeOf(bob.call('mac', { ttag, data: Buffer.from('data') })), 'KEY_EXPIRED');
      for (const c of [alice, bob]) await c.close();
      await ks.close();
    },
  );

  test(
    title('says whether a creation replayed; withdrawing its own creation expires the key and forgets its Idempotency-Key'),
    async (t) => {
      const ks = await make();
      const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
      const bob = await ks.keyServer.connect((await ks.keyServer.login('bob', new Secret('bob-pw'))).token);
      const claim = { key: 'contract-1', fingerprint: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg' };
      const first = await alice.call('generateKey', { keyLen: 16, idempotency: claim });
      t.false(first.replayed);
      t.is(
        await codeOf(bob.call('withdrawKey', { ttag: first.ttag, idempotencyKey: claim.key })),
        'ACL_DENIED',
        "another's key is not withdrawn",
      );
      await alice.call('withdrawKey', { ttag: first.ttag, idempotencyKey: claim.key });
      t.is((await alice.call('readKey', { ttag: first.ttag })).state, 'expired');
      const fresh = await alice.call('generateKey', { keyLen: 16, idempotency: claim });
      t.deepEqual(fresh, { ttag: fresh.ttag, replayed: false });
      t.not(fresh.ttag, first.ttag, 'the withdrawn creation is not replayed');
      t.deepEqual(await alice.call('generateKey', { keyLen: 16, idempotency: claim }), { ttag: fresh.ttag, replayed: true });
      await alice.call('withdrawKey', { ttag: fresh.ttag, idempotencyKey: claim.key });
      t.is(
        (await alice.call('readKey', { ttag: fresh.ttag })).state,
        'active',
        'a creation whose answer a replay holds is kept by its undo',
      );
      t.deepEqual(
        await alice.call('generateKey', { keyLen: 16, idempotency: claim }),
        { ttag: fresh.ttag, replayed: true },
        'and its record stays',
      );
      await alice.call('expireKey', { ttag: fresh.ttag });
      t.is(
        await codeOf(alice.call('generateKey', { keyLen: 16, idempotency: claim })),
        'KEY_EXPIRED',
        'a replay onto a key expired since is refused',
      );
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
    t.like(await admin.call('createPrincipal', { name: 'dora', kind: 'user', displayName: 'Dora', verifier }), {
      name: 'dora',
      roles: ['user'],
    });
    t.is((await ks.keyServer.login('dora', new Secret('dora-pw'))).identity.user, 'dora');
    await admin.call('createPrincipal', { name: 'team', kind: 'group' });
    await admin.call('addGroupMember', { group: 'team', member: 'dora' });
    t.deepEqual(
      (await admin.call('groupMembers', { group: 'team' })).items.map((p) => p.name),
      ['dora'],
    );
    t.deepEqual(
      (await admin.call('principalGroups', { name: 'dora' })).items.map((p) => p.name),
      ['team'],
    );
    const first = await admin.call('listPrincipals', { limit: 2 });
    t.deepEqual(
      first.items.map((p) => p.name),
      ['admin', 'alice'],
    );
    const rest = await admin.call('listPrincipals', { limit: 500, cursor: first.next });
    // A key server shared by several tests (a daemon) may hold principals of other tests too.
    const names = [...first.items, ...rest.items].map((p) => p.name);
    t.deepEqual(names, [...new Set(names)].sort(), 'pages follow on in name order, nothing twice');
    for (const expected of ['bob', 'carol', 'dora', 'svc', 'team']) t.true(names.includes(expected), expected);
    t.deepEqual(
      (await admin.call('listPrincipals', { limit: 500, kind: 'group' })).items.map((p) => p.kind).filter((k) => k !== 'group'),
      [],
    );
    t.deepEqual(await admin.call('putRole', { name: 'reader', operations: ['keys.read'] }), { name: 'reader', operations: ['keys.read'] });
    t.like(await admin.call('updatePrincipal', { name: 'dora', changes: { roles: ['reader'] } }), { roles: ['reader'] });
    t.is(await codeOf(alice.call('createPrincipal', { name: 'eve', kind: 'user' })), 'ROLE_DENIED');
    t.is(await codeOf(alice.call('putRole', { name: 'user', operations: [] })), 'ROLE_DENIED');
    t.is(await codeOf(admin.call('putRole', { name: 'reader', operations: ['keys.steal'] })), 'BAD_REQUEST');
    await admin.call('deletePrincipal', { name: 'dora' });
    t.is(await codeOf(admin.call('readPrincipal', { name: 'dora' })), 'NOT_FOUND');
    t.is(await codeOf(ks.keyServer.login('dora', new Secret('dora-pw'))), 'WRONG_CREDENTIAL');
    for (const c of [admin, alice]) await c.close();
    await ks.close();
  });

  test(title('lists the groups by name a page at a time (docs/spec.md §4.9 item 1), and refuses them to a user'), async (t) => {
    const ks = await make();
    const admin = await ks.keyServer.connect((await ks.keyServer.login('admin', new Secret('admin-pw'))).token);
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const made = ['listed-c', 'listed-a', 'listed-B'];
    for (const name of made) await admin.call('createPrincipal', { name, kind: 'group' });
    // A key server shared by several tests (a daemon) may hold groups of other tests too.
    const seen: { name: string; kind: string }[] = [];
    let page = await admin.call('listGroups', { limit: 2 });
    for (;;) {
      t.true(page.complete);
      t.true(page.items.length <= 2);
      seen.push(...page.items);
      if (page.next === undefined) break;
      page = await admin.call('listGroups', { limit: 2, cursor: page.next });
    }
    const names = seen.map((group) => group.name);
    t.deepEqual(names, [...new Set(names)].sort(), 'pages follow on in name order, nothing twice');
    for (const name of made) t.true(names.includes(name), name);
    t.deepEqual(
      seen.filter((group) => group.kind !== 'group'),
      [],
    );
    // Other tests' groups may come and go meanwhile on a shared daemon: this test's own are compared.
    const own = (list: readonly string[]) => list.filter((name) => made.includes(name));
    t.deepEqual(own((await admin.call('listGroups', { limit: 1000 })).items.map((group) => group.name)), own(names));
    t.deepEqual(own(names), ['listed-B', 'listed-a', 'listed-c']);
    for (const limit of [0, 1001, 2.5]) t.is(await codeOf(admin.call('listGroups', { limit })), 'BAD_REQUEST', `limit ${limit}`);
    const principalsCursor = (await admin.call('listPrincipals', { limit: 1 })).next!;
    t.is(await codeOf(admin.call('listGroups', { limit: 2, cursor: principalsCursor })), 'BAD_REQUEST', 'a cursor of another list');
    t.is(await codeOf(alice.call('listGroups', { limit: 2 })), 'ROLE_DENIED');
    for (const c of [admin, alice]) await c.close();
    await ks.close();
  });

  test(title("answers the caller's operations through its roles and its groups' roles"), async (t) => {
    const ks = await make();
    const admin = await ks.keyServer.connect((await ks.keyServer.login('admin', new Secret('admin-pw'))).token);
    const record = srpCreateVerifier('erin', 'erin-pw', new CryptoRandom());
    await admin.call('createPrincipal', {
      name: 'erin',
      kind: 'user',
      verifier: { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') },
    });
    await admin.call('createPrincipal', { name: 'readers', kind: 'group', roles: ['auditor'] });
    const erin = await ks.keyServer.connect((await ks.keyServer.login('erin', new Secret('erin-pw'))).token);
    const own = await erin.call('heldOperations', {});
    t.false(own.scoped);
    t.true(own.operations.includes('keys.create'));
    t.false(own.operations.includes('audit.read'));
    await admin.call('addGroupMember', { group: 'readers', member: 'erin' });
    t.true((await erin.call('heldOperations', {})).operations.includes('audit.read'), "a group's role counts for its members");
    await admin.call('removeGroupMember', { group: 'readers', member: 'erin' });
    t.deepEqual((await admin.call('groupMembers', { group: 'readers' })).items, []);
    t.false((await erin.call('heldOperations', {})).operations.includes('audit.read'));
    t.true((await admin.call('heldOperations', {})).operations.includes('audit.read'));
    t.deepEqual((await admin.call('readRole', { name: 'auditor' })).operations.includes('audit.read'), true);
    t.true((await admin.call('listRoles', {})).items.some((r) => r.name === 'auditor'));
    const next = srpCreateVerifier('erin', 'erin-new', new CryptoRandom());
    await admin.call('setPassword', {
      name: 'erin',
      verifier: { salt: next.salt.toString('base64'), verifier: next.verifier.toString('base64') },
    });
    t.is(await codeOf(ks.keyServer.login('erin', new Secret('erin-pw'))), 'WRONG_CREDENTIAL');
    t.is((await ks.keyServer.login('erin', new Secret('erin-new'))).identity.user, 'erin');
    t.like(await admin.call('updatePrincipal', { name: 'erin', changes: { disabled: true } }), { disabled: true });
    t.is(await codeOf(erin.call('whoami', {})), 'SESSION_EXPIRED', 'disabling a principal ends its tokens');
    const config = await admin.call('serverConfig', {});
    t.false(JSON.stringify(config).includes('admin-pw'), 'no secret in the configuration');
    for (const c of [admin, erin]) await c.close();
    await ks.close();
  });

  test(title('carries data under cryptography up to the largest request body'), async (t) => {
    const ks = await make();
    const alice = await ks.keyServer.connect((await ks.keyServer.login('alice', new Secret('alice-pw'))).token);
    const { ttag } = await alice.call('generateKey', { keyLen: 32, label: 'bulk', expiresAt: Date.now() + 3_600_000 });
    t.like(await alice.call('readKey', { ttag }), { label: 'bulk' });
    t.truthy((await alice.call('readKey', { ttag })).expiresAt);
    const plaintext = Buffer.alloc(700 * 1024, 7);
    const { ciphertext, iv, authTag } = await alice.call('encrypt', { ttag, request: { plaintext } });
    // Buffer.equals, not deepEqual: ava's deepEqual describes a 700 KiB buffer byte by byte (about 0.7 s of CPU).
    const decrypted = (await alice.call('decrypt', { ttag, request: { ciphertext, iv, authTag } })).plaintext;
    t.is(decrypted.length, plaintext.length);
    t.true(Buffer.from(decrypted).equals(plaintext), 'the same bytes come back');
    const { mac } = await alice.call('mac', { ttag, data: plaintext });
    t.deepEqual(await alice.call('verifyMac', { ttag, request: { data: plaintext, mac } }), { valid: true });
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
    t.like(await admin.call('parseCertificate', { pem: leaf.pem }), { subject: 'CN=bob-cert' });
    t.is(await codeOf(admin.call('parseCertificate', { pem: 'garbage' })), 'CERTIFICATE_MALFORMED');
    t.like(await admin.call('verifyCertificate', { pem: leaf.pem }), { trusted: false });
    const other = await createLeaf(await createAuthority('untrusted CA', validity), 'bob-other', validity);
    const refused = await admin
      .call('enrollCertificate', { principal: 'bob', pem: other.pem })
      .catch((error: { code?: string; reason?: string }) => error);
    t.like(refused, { code: 'CONFLICT' });
    t.truthy((refused as { reason?: string }).reason, 'a refused enrollment says why');
    const ca = await admin.call('addTrustAuthority', { pem: authority.pem });
    t.true((await admin.call('listTrustAuthorities', {})).items.some((c) => c.id === ca.id));
    const enrolled = await admin.call('enrollCertificate', { principal: 'bob', pem: leaf.pem });
    t.like(await admin.call('readCertificate', { id: enrolled.id }), { principal: 'bob' });
    t.deepEqual(await admin.call('verifyCertificate', { pem: leaf.pem }), { trusted: true, chain: [enrolled.id, ca.id] });
    t.like(await admin.call('listCertificates', { limit: 10, principal: 'bob' }), { complete: true, items: [{ id: enrolled.id }] });
    await admin.call('removeTrustAuthority', { id: ca.id });
    t.false((await admin.call('listTrustAuthorities', {})).items.some((c) => c.id === ca.id));
    t.like(await admin.call('verifyCertificate', { pem: leaf.pem }), { trusted: false });
    t.is(typeof (await admin.call('serverVersion', {})).keyServer, 'string');
    t.like(await admin.call('setParameter', { name: 'maxPendingLogins', value: 50 }), { name: 'maxPendingLogins', value: 50 });
    t.true((await admin.call('listParameters', {})).items.some((p) => p.name === 'maxPendingLogins' && p.value === 50));
    t.is(await codeOf(admin.call('setParameter', { name: 'maxPendingLogins', value: 'many' })), 'BAD_REQUEST');
    t.is(await codeOf(admin.call('setParameter', { name: 'nope', value: 1 })), 'NOT_FOUND');
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
    t.is(await codeOf(admin.call('addTrustAuthority', { pem: leaf.pem })), 'BAD_REQUEST', 'a leaf is not an authority');
    t.is((await admin.call('addTrustAuthority', { pem: authority.pem })).id.length, 64);
    const enrolled = await admin.call('enrollCertificate', { principal: 'carol', pem: leaf.pem });
    t.is(enrolled.principal, 'carol');
    const signer = await makeSigner('RS256');
    const { jkt } = await admin.call('putSenderKey', { principal: 'carol', jwk: signer.publicJwk });
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

  test(
    title(
      'workload sign-in: a token of a trusted issuer signs in the service it names, no longer than the token; a refusal is WRONG_CREDENTIAL',
    ),
    async (t) => {
      const ks = await make();
      const admin = await as(ks, 'admin');
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
      const settings = {
        issuer: 'https://k8s.example',
        jwks: { keys: [jwk] },
        audiences: ['keygate'],
        algorithms: ['ES256'],
        principal: '{sub}',
      };
      t.like(await admin.call('putIssuer', { name: 'cluster', settings }), { name: 'cluster', leeway: 30, requireJti: false });
      const exp = Math.floor(Date.now() / 1000) + 120;
      const sign = (claims: Record<string, unknown>) =>
        new SignJWT({ iss: 'https://k8s.example', sub: 'svc', aud: 'keygate', exp, ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .sign(privateKey);
      const token = await sign({ jti: 'one' });
      const login = await ks.keyServer.workloadLogin({ token });
      if ('keySource' in login) return t.fail('an issuer with its keys inline is verified at once');
      t.like(login, {
        issuer: 'cluster',
        subject: 'svc',
        jti: 'one',
        requireJti: false,
        usableUntil: exp * 1000 + 30_000,
        jwksUri: undefined,
      });
      t.is(login.identity.user, 'svc');
      t.true(login.expiresAt !== undefined && login.expiresAt <= exp * 1000);
      const connection = await ks.keyServer.connect(login.token);
      t.is((await connection.call('whoami', {})).user, 'svc');
      await connection.close();
      t.is(await codeOf(ks.keyServer.workloadLogin({ token: await sign({ aud: 'other' }) })), 'WRONG_CREDENTIAL');
      t.is(await codeOf(ks.keyServer.workloadLogin({ token: await sign({ sub: 'alice' }) })), 'WRONG_CREDENTIAL', 'a user is no workload');
      t.is(await codeOf(ks.keyServer.workloadLogin({ token: await sign({ iss: 'https://other.example' }) })), 'WRONG_CREDENTIAL');
      await admin.call('putIssuer', { name: 'cluster', settings: { ...settings, jwks: undefined, jwksUri: 'https://k8s.example/jwks' } });
      // Without a set, or with one fetched elsewhere, the answer is only where the keys are: nothing is verified.
      const keySource = { keySource: { issuer: 'cluster', jwksUri: 'https://k8s.example/jwks' } };
      t.deepEqual(await ks.keyServer.workloadLogin({ token }), keySource);
      const fetched = { keys: [jwk] };
      t.deepEqual(await ks.keyServer.workloadLogin({ token, jwksUri: 'https://elsewhere.example/jwks', jwks: fetched }), keySource);
      t.deepEqual(await ks.keyServer.workloadLogin({ token: await sign({ aud: 'other' }) }), keySource);
      t.like(await ks.keyServer.workloadLogin({ token, jwksUri: 'https://k8s.example/jwks', jwks: fetched }), {
        subject: 'svc',
        jwksUri: 'https://k8s.example/jwks',
      });
      await admin.close();
      await ks.close();
    },
  );

  test(title('a scoped token reaches only its keys and rights'), async (t) => {
    const ks = await make();
    const alice = await as(ks, 'alice');
    const inside = (await alice.call('generateKey', { keyLen: 16 })).ttag;
    const outside = (await alice.call('generateKey', { keyLen: 16 })).ttag;
    const minted = await alice.call('mintScoped', { objects: [inside], rights: ['export'], ttlMs: 60_000 });
    t.deepEqual(minted.scope, { [inside]: ['export'] });
    const scoped = await ks.keyServer.connect(minted.token);
    t.is((await scoped.call('exportKey', { ttag: inside })).key.length, 16);
    t.is(await codeOf(scoped.call('exportKey', { ttag: outside })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.call('mac', { ttag: inside, data: Buffer.alloc(1) })), 'OUT_OF_SCOPE', 'a right the token was not given');
    t.is(await codeOf(scoped.call('encrypt', { ttag: outside, request: { plaintext: Buffer.alloc(1) } })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.call('readAcl', { ttag: inside })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.call('generateKey', { keyLen: 16 })), 'OUT_OF_SCOPE');
    t.is(await codeOf(scoped.call('mintScoped', { objects: [inside], ttlMs: 60_000 })), 'OUT_OF_SCOPE');
    t.like(await scoped.call('heldOperations', {}), { scoped: true });
    await ks.close();
  });

  test(title('only a principal holding session.delegate mints delegated tokens'), async (t) => {
    const ks = await make();
    const svc = await as(ks, 'svc');
    t.is(await codeOf(svc.call('mintDelegated', { principal: 'alice' })), 'DELEGATION_DENIED', 'the delegates list is empty by default');
    await (await as(ks, 'admin')).call('updatePrincipal', { name: 'svc', changes: { delegates: ['alice', 'admin'] } });
    t.is(await codeOf(svc.call('mintDelegated', { principal: 'admin' })), 'DELEGATION_DENIED', 'admin is never delegable');
    const minted = await svc.call('mintDelegated', { principal: 'alice' });
    t.is(minted.actingFor, 'svc');
    const delegated = await ks.keyServer.connect(minted.token);
    t.is((await delegated.call('whoami', {})).user, 'alice');
    const alice = await as(ks, 'alice');
    t.is(await codeOf(alice.call('mintDelegated', { principal: 'bob' })), 'ROLE_DENIED');
    t.is(await codeOf(svc.call('mintDelegated', { principal: 'nobody' })), 'NOT_FOUND');
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
    ['its password changes', (admin, { svc }) => admin.call('setPassword', { name: svc, verifier: verifierOf(svc, `${svc}-new-pw`) })],
    ['its sender key changes', (admin, { svc, senderKey }) => admin.call('putSenderKey', { principal: svc, jwk: senderKey })],
    ['a certificate is enrolled to it', (admin, { svc, spareLeaf }) => admin.call('enrollCertificate', { principal: svc, pem: spareLeaf })],
    [
      'the authority its certificate came through is removed',
      (admin, { authorityId }) => admin.call('removeTrustAuthority', { id: authorityId }),
    ],
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
      await admin.call('createPrincipal', { name: svc, kind: 'service', verifier });
      const authorityId = (await admin.call('addTrustAuthority', { pem: authority.pem })).id;
      await admin.call('enrollCertificate', { principal: svc, pem: leaf.pem });
      await admin.call('updatePrincipal', { name: svc, changes: { delegates: ['alice'] } });
      const minted = await (await as(ks, svc)).call('mintDelegated', { principal: 'alice' });
      const alice = await as(ks, 'alice');
      t.is((await (await ks.keyServer.connect(minted.token)).call('whoami', {})).user, 'alice');
      await apply(admin, { svc, authorityId, spareLeaf: spare.pem, senderKey });
      t.is(await codeOf((await ks.keyServer.connect(minted.token)).call('whoami', {})), 'SESSION_EXPIRED');
      t.is((await alice.call('whoami', {})).user, 'alice', "the target's own token lives on");
      await ks.close();
    });
  }

  test(title('the provisioning policy reads and writes; an unknown parameter is NOT_FOUND'), async (t) => {
    const ks = await make();
    const admin = await as(ks, 'admin');
    t.is((await admin.call('readPolicy', {})).autoProvision, false);
    t.is((await admin.call('setPolicy', { name: 'autoProvision', value: true })).autoProvision, true);
    t.is(await codeOf(admin.call('setPolicy', { name: 'colour', value: 'blue' })), 'NOT_FOUND');
    t.is(await codeOf(admin.call('setPolicy', { name: 'nameAttribute', value: 'O' })), 'BAD_REQUEST');
    t.is((await admin.call('setPolicy', { name: 'autoProvision', value: false })).autoProvision, false);
    const alice = await as(ks, 'alice');
    t.is(await codeOf(alice.call('readPolicy', {})), 'ROLE_DENIED');
    await ks.close();
  });
}
