import test from 'ava';
import type { PrincipalRow } from '../../src/keyserver/engine/engine-model.js';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';

export type EngineStoreFactory = () => EngineStore | Promise<EngineStore>;

let systemIds = 1000;

/** A principal row; system ids are unique, as the engine hands them out. */
function principal(name: string, kind: PrincipalRow['kind'] = 'user', id = name.padEnd(16, '0').slice(0, 16)): PrincipalRow {
  systemIds += 1;
  return {
    name,
    kind,
    systemId: systemIds,
    principalId: Buffer.from(id).toString('hex').slice(0, 16),
    disabled: false,
    roles: [],
    createdAt: 0,
  };
}

/**
 * The engine store's directory methods (principal pages and deletion, group memberships, role
 * definitions, ending a principal's tokens), run against one store. Every store passes it.
 */
export function engineStoreDirectoryContract(name: string, make: EngineStoreFactory): void {
  const title = (behaviour: string) => `${name} engine store: ${behaviour}`;

  test(title('pages principals by name after a key, with a limit and a kind'), async (t) => {
    const store = await make();
    for (const [n, kind] of [
      ['carol', 'user'],
      ['ops', 'group'],
      ['alice', 'user'],
      ['bob', 'service'],
      ['Zed', 'user'],
    ] as const)
      await store.putPrincipal(principal(n, kind));
    t.deepEqual(
      (await store.principalsAfter(undefined, 10)).map((p) => p.name),
      ['Zed', 'alice', 'bob', 'carol', 'ops'],
    );
    t.deepEqual(
      (await store.principalsAfter('alice', 2)).map((p) => p.name),
      ['bob', 'carol'],
    );
    t.deepEqual(
      (await store.principalsAfter(undefined, 10, 'user')).map((p) => p.name),
      ['Zed', 'alice', 'carol'],
    );
    t.deepEqual(
      (await store.principalsAfter('alice', 1, 'user')).map((p) => p.name),
      ['carol'],
    );
    t.deepEqual(await store.principalsAfter('ops', 10), []);
    await store.close();
  });

  test(title('deletes a principal by id, by name and id alike'), async (t) => {
    const store = await make();
    const row = principal('alice');
    await store.putPrincipal(row);
    await store.deletePrincipal(row.principalId);
    t.is(await store.principalByName('alice'), undefined);
    t.is(await store.principalById(row.principalId), undefined);
    t.deepEqual(await store.principalsAfter(undefined, 10), []);
    await store.close();
  });

  test(title('deleting a principal takes its memberships, tokens and enrolled certificates, and nothing of others'), async (t) => {
    const store = await make();
    const [dora, erin, team] = [principal('dora'), principal('erin'), principal('team', 'group')];
    for (const row of [dora, erin, team]) await store.putPrincipal(row);
    await store.putMembership(team.principalId, dora.principalId);
    await store.putMembership(team.principalId, erin.principalId);
    await store.putToken({ tokenHash: 'dora-token', principalId: dora.principalId, issuedAt: 0, expiresAt: undefined });
    await store.putToken({ tokenHash: 'erin-token', principalId: erin.principalId, issuedAt: 0, expiresAt: undefined });
    await store.putCertificate({ id: 'a'.repeat(64), pem: 'dora', role: 'enrolled', principalId: dora.principalId, createdAt: 0 });
    await store.putCertificate({ id: 'b'.repeat(64), pem: 'erin', role: 'enrolled', principalId: erin.principalId, createdAt: 0 });
    await store.putCertificate({ id: 'c'.repeat(64), pem: 'ca', role: 'authority', createdAt: 0 });
    await store.deletePrincipal(dora.principalId);
    t.deepEqual(await store.memberIdsOf(team.principalId), [erin.principalId]);
    t.deepEqual(await store.groupIdsOf(dora.principalId), []);
    t.is(await store.token('dora-token'), undefined);
    t.is((await store.token('erin-token'))?.principalId, erin.principalId);
    t.deepEqual(
      (await store.certificates('enrolled')).map((c) => c.pem),
      ['erin'],
    );
    t.is((await store.certificates('authority')).length, 1);
    await store.deletePrincipal(team.principalId);
    t.deepEqual(await store.groupIdsOf(erin.principalId), [], 'a deleted group has no members left');
    t.is((await store.principalByName('erin'))?.principalId, erin.principalId);
    await store.close();
  });

  test(title('rewriting a principal keeps its memberships'), async (t) => {
    const store = await make();
    const [dora, team] = [principal('dora'), principal('team', 'group')];
    await store.putPrincipal(dora);
    await store.putPrincipal(team);
    await store.putMembership(team.principalId, dora.principalId);
    await store.putPrincipal({ ...dora, disabled: true, displayName: 'Dora' });
    t.deepEqual(await store.groupIdsOf(dora.principalId), [team.principalId]);
    t.like(await store.principalByName('dora'), { disabled: true, displayName: 'Dora' });
    await store.close();
  });

  test(title('keeps group memberships both ways, and drops them all for one principal'), async (t) => {
    const store = await make();
    await store.putMembership('g1', 'm1');
    await store.putMembership('g1', 'm1');
    await store.putMembership('g1', 'm2');
    await store.putMembership('g2', 'm1');
    t.deepEqual((await store.memberIdsOf('g1')).sort(), ['m1', 'm2']);
    t.deepEqual((await store.groupIdsOf('m1')).sort(), ['g1', 'g2']);
    await store.deleteMembership('g1', 'm2');
    t.deepEqual(await store.memberIdsOf('g1'), ['m1']);
    await store.deleteMembershipsOf('m1');
    t.deepEqual(await store.groupIdsOf('m1'), []);
    await store.putMembership('g2', 'm3');
    await store.deleteMembershipsOf('g2');
    t.deepEqual(await store.memberIdsOf('g2'), []);
    t.deepEqual(await store.groupIdsOf('m3'), []);
    await store.close();
  });

  test(title('stores and replaces role definitions'), async (t) => {
    const store = await make();
    t.is(await store.role('reader'), undefined);
    await store.putRole({ name: 'reader', operations: ['keys.read'] });
    await store.putRole({ name: 'reader', operations: ['keys.read', 'acl.read'] });
    await store.putRole({ name: 'user', operations: [] });
    t.deepEqual(await store.role('reader'), { name: 'reader', operations: ['keys.read', 'acl.read'] });
    t.deepEqual((await store.roles()).map((r) => r.name).sort(), ['reader', 'user']);
    await store.close();
  });

  test(title('ends every token of one principal, and only its'), async (t) => {
    const store = await make();
    for (const [hash, principalId] of [
      ['h1', 'p1'],
      ['h2', 'p1'],
      ['h3', 'p2'],
    ]) {
      await store.putToken({ tokenHash: hash!, principalId: principalId!, issuedAt: 0, expiresAt: undefined });
    }
    await store.deleteTokensOf('p1');
    t.is(await store.token('h1'), undefined);
    t.is(await store.token('h2'), undefined);
    t.is((await store.token('h3'))?.principalId, 'p2');
    await store.close();
  });
}
