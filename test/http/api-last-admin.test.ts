import test, { type ExecutionContext } from 'ava';
import { type ApiSession, signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';
import { startTestPostgres } from '../_support/postgres.js';
import { testUnless } from '../_support/skip.js';
import { startGatewaysSharingPostgres } from '../_support/store-gateways.js';

/** docs/spec.md §4.8: the key server always keeps an enabled user or service holding `admin`. */
const postgres = startTestPostgres();
const withPostgres = testUnless(postgres.reason);
test.after.always(() => postgres.stop());

function lastAdmin(t: ExecutionContext, reply: Reply, what: string): void {
  t.is(reply.status, 409, `${what}: ${reply.text}`);
  t.like(reply.body, { code: 'CONFLICT', reason: 'LAST_ADMIN' }, what);
}

async function admins(session: ApiSession): Promise<string[]> {
  const list = await session.get('/api/principals');
  return list.body.items
    .filter((p: { roles: string[]; disabled: boolean }) => p.roles.includes('admin') && !p.disabled)
    .map((p: { name: string }) => p.name);
}

test('the last administrator cannot demote itself: 409 CONFLICT LAST_ADMIN, and it stays admin', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  lastAdmin(t, await admin.put('/api/principals/admin', { roles: ['user'] }), 'demote itself');
  t.like((await admin.get('/api/principals/admin')).body, { name: 'admin', roles: ['admin'], disabled: false });
});

test('a principal holding principal rights but not admin cannot demote, disable or delete the last administrator', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  t.is(
    (await admin.put('/api/roles/keeper', { operations: ['principals.update', 'principals.delete', 'principals.list', 'principals.read'] }))
      .status,
    200,
  );
  t.is((await admin.put('/api/principals/carol', { roles: ['user', 'keeper'] })).status, 200);
  const carol = await signIn(gw, 'carol');
  lastAdmin(t, await carol.put('/api/principals/admin', { roles: ['user'] }), 'demote');
  lastAdmin(t, await carol.put('/api/principals/admin', { disabled: true }), 'disable');
  lastAdmin(t, await carol.del('/api/principals/admin'), 'delete');
  t.deepEqual(await admins(admin), ['admin']);
});

test('an administrator through a group: ending the membership, disabling, redefining or deleting the group is refused while it is the last', async (t) => {
  const gw = await startGateway(t);
  const admin = await signIn(gw, 'admin');
  t.is((await admin.post('/api/principals', { name: 'root', kind: 'group', roles: ['admin'] })).status, 201);
  t.is((await admin.put('/api/groups/root/members/alice')).status, 204);
  t.is((await admin.put('/api/principals/admin', { roles: ['user'] })).status, 200, 'alice is an administrator through root');
  const alice = await signIn(gw, 'alice');
  lastAdmin(t, await alice.del('/api/groups/root/members/alice'), 'leave the group');
  lastAdmin(t, await alice.put('/api/principals/root', { disabled: true }), 'disable the group');
  lastAdmin(t, await alice.put('/api/principals/root', { roles: ['user'] }), 'redefine the group');
  lastAdmin(t, await alice.del('/api/principals/root'), 'delete the group');
  t.like((await alice.get('/api/groups/root/members')).body, { items: [{ name: 'alice' }] });

  t.is((await alice.put('/api/principals/bob', { roles: ['admin'] })).status, 200);
  t.is((await alice.put('/api/principals/bob', { disabled: true })).status, 200, 'another administrator may be disabled while one remains');
  t.is((await alice.put('/api/principals/bob', { disabled: false })).status, 200);
  const bob = await signIn(gw, 'bob');
  t.is((await bob.del('/api/principals/root')).status, 204, 'with bob an administrator, the group may go');
  lastAdmin(t, await bob.put('/api/principals/bob', { roles: ['user'] }), 'bob is now the last');
});

withPostgres(
  'two administrators demoting themselves at once through two gateways on one PostgreSQL key store: exactly one succeeds',
  async (t) => {
    const { first, second } = await startGatewaysSharingPostgres(t, postgres.url!, 'keygate-last-admin-');
    const admin = await signIn(first, 'admin');
    t.is((await admin.put('/api/principals/alice', { roles: ['admin'] })).status, 200);
    const alice = await signIn(second, 'alice');
    for (let round = 1; round <= 3; round += 1) {
      const replies = await Promise.all([
        admin.put('/api/principals/admin', { roles: ['user'] }),
        alice.put('/api/principals/alice', { roles: ['user'] }),
      ]);
      const statuses = replies.map((reply) => reply.status).sort();
      t.deepEqual(statuses, [200, 409], `round ${round}: ${replies.map((reply) => reply.text).join(' | ')}`);
      t.like(replies.find((reply) => reply.status === 409)!.body, { code: 'CONFLICT', reason: 'LAST_ADMIN' });
      const left = await admins(replies[0]!.status === 200 ? alice : admin);
      t.is(left.length, 1, `round ${round}: one administrator is left (${left.join(', ')})`);
      const [demoted, kept] = replies[0]!.status === 200 ? (['admin', alice] as const) : (['alice', admin] as const);
      t.is((await kept.put(`/api/principals/${demoted}`, { roles: ['admin'] })).status, 200, 'the demoted one is made administrator again');
    }
  },
);
