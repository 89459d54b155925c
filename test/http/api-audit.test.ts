import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import type { AuditRecord } from '../../src/domain/audit/audit.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { type PASSWORDS, startGateway } from '../_support/gateway.js';

const T0 = Date.UTC(2026, 2, 1, 12);

/** The real gateway on a real socket, its audit log a memory log behind a fault injector. */
async function startAuditApi(t: ExecutionContext) {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(t, {}, { auditLog: log });
  return {
    log,
    bearer: async (user: keyof typeof PASSWORDS) => ({ Authorization: `Bearer ${await gw.login(user)}` }),
    get: (path: string, headers: Record<string, string> = {}) => gw.call('GET', path, { headers }),
    close: () => gw.close(),
  };
}

function record(at: number, fields: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: at.toString(16).padStart(32, '0'),
    at,
    requestId: 'r',
    operation: 'keys.export',
    principal: 'alice',
    outcome: 'ok',
    status: 200,
    ...fields,
  };
}

test('GET /api/audit answers whole pages newest first with ISO times; next leads through every record', async (t) => {
  const api = await startAuditApi(t);
  const stored = [record(T0 - 3000), record(T0 - 2000, { outcome: 'denied', status: 403, code: 'ACL_DENIED' }), record(T0 - 1000)];
  for (const r of stored) await api.log.append(r);
  const admin = await api.bearer('admin');
  const first = await api.get('/api/audit?limit=2&to=2026-03-01T12:00:00Z', admin);
  t.is(first.status, 200);
  t.is(first.body.complete, true);
  t.deepEqual(
    first.body.items,
    [stored[2], stored[1]].map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
  );
  const second = await api.get(`/api/audit?limit=2&to=2026-03-01T12:00:00Z&cursor=${first.body.next}`, admin);
  t.deepEqual(second.body, { items: [{ ...stored[0], at: new Date(stored[0]!.at).toISOString() }], complete: true });
});

test('GET /api/audit filters by time with offsets, principal, operation and outcome', async (t) => {
  const api = await startAuditApi(t);
  for (const r of [
    record(T0 - 3000, { principal: 'bob' }),
    record(T0 - 2000, { outcome: 'denied', status: 401 }),
    record(T0 - 1000, { operation: 'keys.grant' }),
  ]) {
    await api.log.append(r);
  }
  const admin = await api.bearer('admin');
  const ats = async (query: string) => ((await api.get(`/api/audit?${query}`, admin)).body.items as AuditRecord[]).map((r) => r.at);
  const iso = (ms: number) => new Date(ms).toISOString();
  t.deepEqual(
    await ats('from=2026-03-01T13:59:58%2B02:00&to=2026-03-01T11:59:59Z'),
    [iso(T0 - 1000), iso(T0 - 2000)],
    'bounds inclusive, offsets honoured',
  );
  t.deepEqual(await ats('principal=bob'), [iso(T0 - 3000)]);
  t.deepEqual(await ats('operation=keys.grant'), [iso(T0 - 1000)]);
  t.deepEqual(await ats('outcome=denied&principal=alice'), [iso(T0 - 2000)]);
});

const badQueries: [string, RegExp][] = [
  ['limit=0', /^limit/],
  ['limit=501', /^limit/],
  ['limit=ten', /^limit/],
  ['limit=1&limit=2', /^limit/],
  ['from=2026-03-01', /^from/],
  ['to=2026-03-01T12:00:00', /^to/],
  ['from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', /^from/],
  ['outcome=maybe', /^outcome/],
  ['operation=DROP%20TABLE', /^operation/],
  ['cursor=bm90LWEtY3Vyc29y', /^cursor/],
  ['sort=asc', /sort/],
];
for (const [query, detail] of badQueries) {
  test(`GET /api/audit?${query} is 400 BAD_REQUEST naming the parameter`, async (t) => {
    const api = await startAuditApi(t);
    const reply = await api.get(`/api/audit?${query}`, await api.bearer('admin'));
    t.is(reply.status, 400);
    t.is(reply.body.code, 'BAD_REQUEST');
    t.regex(reply.body.detail, detail);
  });
}

test('GET /api/audit/{id} answers the record, 404 for an unknown id; both need audit.read', async (t) => {
  const api = await startAuditApi(t);
  const stored = record(T0);
  await api.log.append(stored);
  const admin = await api.bearer('admin');
  t.deepEqual((await api.get(`/api/audit/${stored.id}`, admin)).body, { ...stored, at: new Date(T0).toISOString() });
  t.is((await api.get(`/api/audit/${'e'.repeat(32)}`, admin)).status, 404);
  const alice = await api.bearer('alice');
  t.like(await api.get(`/api/audit/${stored.id}`, alice), { status: 403, body: { code: 'ROLE_DENIED' } });
  t.like(await api.get('/api/audit', alice), { status: 403, body: { code: 'ROLE_DENIED' } });
  t.like(await api.get('/api/audit'), { status: 401, body: { code: 'SESSION_REQUIRED' } });
});

test('an unreadable audit store is 503 AUDIT_UNAVAILABLE, never an empty list', async (t) => {
  const api = await startAuditApi(t);
  const admin = await api.bearer('admin');
  api.log.faults.down = true;
  const reply = await api.get('/api/audit', admin);
  t.is(reply.status, 503);
  t.is(reply.body.code, 'AUDIT_UNAVAILABLE');
  t.false('items' in reply.body);
});

test('reading the audit log is itself recorded, by the reader and what was asked', async (t) => {
  const api = await startAuditApi(t);
  const admin = await api.bearer('admin');
  await api.get('/api/audit?limit=5', admin);
  await api.get('/api/audit', await api.bearer('alice'));
  const { items } = await api.log.query({ operation: 'audit.query' });
  t.deepEqual(items.map((r) => [r.operation, r.principal, r.outcome, r.status]).sort(), [
    ['audit.query', 'admin', 'ok', 200],
    ['audit.query', 'alice', 'denied', 403],
  ]);
});
