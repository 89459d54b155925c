import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import { srpCreateVerifier } from '../../src/crypto/srp/srp-verifier.js';
import { Secret } from '../../src/domain/secret/secret.js';
import { adapterTo, createDatabase, postgresForTests, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';

const { server, maybe } = postgresForTests();

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

maybe('a change answered by one daemon is honoured by the other on its very next operation', async (t) => {
  const url = await createDatabase(server.url!);
  const fixtures = sharedFixtures();
  const [a, b] = await Promise.all([
    spawnPostgresDaemon(t, url, fixtures),
    spawnPostgresDaemon(t, url, fixtures, { viaEnvironment: true }),
  ]);
  const [ksA, ksB] = [await adapterTo(t, a), await adapterTo(t, b)];
  const login = async (keyServer: typeof ksA, user: string, password = `${user}-pw`) =>
    (await keyServer.login(user, new Secret(password))).token;
  const open = async (keyServer: typeof ksA, token: Secret) => {
    const connection = await keyServer.connect(token);
    t.teardown(() => connection.close());
    return connection;
  };
  const adminA = await open(ksA, await login(ksA, 'admin'));

  // A token revoked through A (signed out) is refused by B.
  const bobToken = await login(ksA, 'bob');
  const bobOnB = await open(ksB, bobToken);
  t.is((await bobOnB.call('whoami', {})).user, 'bob');
  await (await open(ksA, bobToken)).call('revokeToken', {});
  t.is(await codeOf(bobOnB.call('whoami', {})), 'SESSION_EXPIRED');

  // A key's grant and revoke through A: B answers the new ACL on its next operation.
  const aliceA = await open(ksA, await login(ksA, 'alice'));
  const { ttag } = await aliceA.call('generateKey', { keyLen: 16 });
  const carolOnB = await open(ksB, await login(ksB, 'carol'));
  t.is(await codeOf(carolOnB.call('exportKey', { ttag })), 'ACL_DENIED');
  await aliceA.call('grant', { ttag, principal: 'carol', rights: ['read', 'export'] });
  t.is(await codeOf(carolOnB.call('exportKey', { ttag })), 'ok');
  await aliceA.call('revoke', { ttag, principal: 'carol' });
  t.is(await codeOf(carolOnB.call('exportKey', { ttag })), 'ACL_DENIED');

  // A role and a membership changed through A: B's answer to the member's next operation follows.
  const record = srpCreateVerifier('dave', 'dave-pw', new CryptoRandom());
  await adminA.call('createPrincipal', {
    name: 'dave',
    kind: 'user',
    verifier: { salt: record.salt.toString('base64'), verifier: record.verifier.toString('base64') },
  });
  await adminA.call('createPrincipal', { name: 'readers', kind: 'group', roles: ['auditor'] });
  const daveOnB = await open(ksB, await login(ksB, 'dave'));
  t.false((await daveOnB.call('heldOperations', {})).operations.includes('audit.read'));
  await adminA.call('addGroupMember', { group: 'readers', member: 'dave' });
  t.true((await daveOnB.call('heldOperations', {})).operations.includes('audit.read'), 'membership added through A');
  await adminA.call('removeGroupMember', { group: 'readers', member: 'dave' });
  t.false((await daveOnB.call('heldOperations', {})).operations.includes('audit.read'), 'membership removed through A');
  await adminA.call('addGroupMember', { group: 'readers', member: 'dave' });
  t.true((await daveOnB.call('heldOperations', {})).operations.includes('audit.read'));
  await adminA.call('putRole', { name: 'auditor', operations: ['keys.read'] });
  t.false((await daveOnB.call('heldOperations', {})).operations.includes('audit.read'), 'role redefined through A');

  // A password reset through A: B refuses the old password and takes the new one.
  const next = srpCreateVerifier('dave', 'dave-new', new CryptoRandom());
  await adminA.call('setPassword', {
    name: 'dave',
    verifier: { salt: next.salt.toString('base64'), verifier: next.verifier.toString('base64') },
  });
  t.is(await codeOf(ksB.login('dave', new Secret('dave-pw'))), 'WRONG_CREDENTIAL');
  const daveAgain = await open(ksB, await login(ksB, 'dave', 'dave-new'));

  // A principal disabled through A: B refuses its token at once, and its login.
  await adminA.call('updatePrincipal', { name: 'dave', changes: { disabled: true } });
  t.is(await codeOf(daveAgain.call('whoami', {})), 'SESSION_EXPIRED');
  t.is(await codeOf(ksB.login('dave', new Secret('dave-new'))), 'WRONG_CREDENTIAL');

  // A principal deleted through A: B refuses its token and no longer knows it.
  const carolToken = await login(ksB, 'carol');
  const carolAgain = await open(ksB, carolToken);
  await adminA.call('deletePrincipal', { name: 'carol' });
  t.is(await codeOf(carolAgain.call('whoami', {})), 'SESSION_EXPIRED');
  const adminB = await open(ksB, await login(ksB, 'admin'));
  t.is(await codeOf(adminB.call('readPrincipal', { name: 'carol' })), 'NOT_FOUND');
});
