import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { signIn } from '../_support/api-client.js';
import { startGateway } from '../_support/gateway.js';

const segment = encodeURIComponent;

test('membership changes whose names hold spaces record distinguishable objects, each found by an audit query', async (t) => {
  const gw = await startGateway(t, {}, { auditLog: new MemoryAuditLog() });
  const admin = await signIn(gw, 'admin');
  for (const [name, kind] of [
    ['ops team', 'group'],
    ['team x', 'user'],
    ['x', 'user'],
  ] as const) {
    t.is((await admin.post('/api/principals', { name, kind })).status, 201, name);
  }
  // "team x" into "ops" and "x" into "ops team": joined with a space, both would read `ops team x`.
  t.is((await admin.put(`/api/groups/ops/members/${segment('team x')}`)).status, 204);
  t.is((await admin.put(`/api/groups/${segment('ops team')}/members/x`)).status, 204);

  const listed = await admin.get('/api/audit?operation=groups.members.add');
  t.is(listed.status, 200);
  const objects = listed.body.items.map((r: { object: string }) => r.object).sort();
  t.deepEqual(objects, ['{"group":"ops team","member":"x"}', '{"group":"ops","member":"team x"}']);
  for (const [group, member] of [
    ['ops', 'team x'],
    ['ops team', 'x'],
  ]) {
    const object = JSON.stringify({ group, member });
    const found = await admin.get(`/api/audit?object=${segment(object)}`);
    t.is(found.status, 200, object);
    t.like(found.body.items, [{ operation: 'groups.members.add', object, outcome: 'ok' }], object);
    t.is(found.body.items.length, 1, object);
  }
});
