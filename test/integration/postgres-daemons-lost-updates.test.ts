import { Secret } from '../../src/domain/secret/secret.js';
import type { KeyServerConnection } from '../../src/ports/key-server.port.js';
import { adapterTo, createDatabase, postgresForTests, sharedFixtures, spawnPostgresDaemon } from '../_support/postgres-daemons.js';

const { server, maybe } = postgresForTests();

const COUNT = 16;
const names = Array.from({ length: COUNT }, (_, index) => `user${String(index).padStart(2, '0')}`);

maybe(
  'concurrent writes through two daemons on one database: every acknowledged grant, membership, principal change and role is kept',
  async (t) => {
    const url = await createDatabase(server.url!);
    const fixtures = sharedFixtures();
    // Started together: the schema is created once, under the migration lock.
    const [one, two] = await Promise.all([
      spawnPostgresDaemon(t, url, fixtures),
      spawnPostgresDaemon(t, url, fixtures, { viaEnvironment: true }),
    ]);
    const keyServers = [await adapterTo(t, one), await adapterTo(t, two)];
    const tokens = {
      admin: (await keyServers[0]!.login('admin', new Secret('admin-pw'))).token,
      alice: (await keyServers[1]!.login('alice', new Secret('alice-pw'))).token,
    };
    /** One call on a connection of its own (as a gateway request makes it), through daemon `index % 2`. */
    const as =
      (user: keyof typeof tokens) =>
      async <T>(index: number, call: (connection: KeyServerConnection) => Promise<T>): Promise<T> => {
        const connection = await keyServers[index % 2]!.connect(tokens[user]);
        try {
          return await call(connection);
        } finally {
          await connection.close();
        }
      };
    const admin = as('admin');
    const alice = as('alice');

    // Principals created at once through both: each gets its own system id, none is lost.
    const created = await Promise.all(names.map((name, index) => admin(index, (c) => c.call('createPrincipal', { name, kind: 'user' }))));
    t.deepEqual(
      created.map((p) => p.name),
      names,
    );
    t.is(new Set(created.map((p) => p.systemId)).size, COUNT);

    // Grants on one key: each read-modify-write of the ACL through either daemon.
    const { ttag } = await alice(0, (c) => c.call('generateKey', { keyLen: 32 }));
    const grants = await Promise.all(
      names.map((name, index) => alice(index, (c) => c.call('grant', { ttag, principal: name, rights: ['read'] }))),
    );
    const acl = await alice(1, (c) => c.call('readAcl', { ttag }));
    t.deepEqual(
      acl.entries
        .map((entry) => entry.principal.user)
        .filter((user) => user !== 'alice')
        .sort(),
      names,
    );
    t.is(new Set(grants.map((grant) => grant.revision)).size, COUNT, 'each grant produced its own revision');

    // Members added to one group at once.
    await Promise.all(names.map((name, index) => admin(index, (c) => c.call('addGroupMember', { group: 'ops', member: name }))));
    t.deepEqual((await admin(0, (c) => c.call('groupMembers', { group: 'ops' }))).items.map((p) => p.name).sort(), names);

    // Two changes to one principal at once, each of a different field: both stay.
    await Promise.all([
      admin(0, (c) => c.call('updatePrincipal', { name: 'carol', changes: { displayName: 'Carol C.' } })),
      admin(1, (c) => c.call('updatePrincipal', { name: 'carol', changes: { roles: ['auditor'] } })),
    ]);
    t.like(await admin(0, (c) => c.call('readPrincipal', { name: 'carol' })), { displayName: 'Carol C.', roles: ['auditor'] });

    // Role definitions written at once through both.
    await Promise.all(
      names.map((name, index) => admin(index, (c) => c.call('putRole', { name: `role-${name}`, operations: ['keys.read'] }))),
    );
    const roles = (await admin(1, (c) => c.call('listRoles', {}))).items.map((role) => role.name);
    for (const name of names) t.true(roles.includes(`role-${name}`), name);
  },
);
