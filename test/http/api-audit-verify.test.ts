import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { SqliteAuditLog } from '../../src/adapters/audit-log/sqlite-audit-log.js';
import { auditTestKeys, testChain, trusted } from '../_support/audit-chain.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startFaultyGateway, startGateway } from '../_support/gateway.js';
import { scratchDir } from '../_support/scratch-dirs.js';

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

/** A gateway whose audit log is a chained memory log behind a fault injector, verified under its keys. */
async function chainedGateway(t: ExecutionContext) {
  const keys = auditTestKeys();
  const log = new FaultyAuditLog(new MemoryAuditLog({ chain: testChain('gw-1', keys, { checkpointEvery: 2 }) }));
  const gw = await startGateway(t, {}, { auditLog: log, auditVerifyKeys: { macKey: keys.macKey, publicKeys: trusted(keys) } });
  t.teardown(() => gw.close());
  return { gw, log };
}

test('GET /api/audit/verify needs audit.read: an auditor is answered, a user refused, no session is 401', async (t) => {
  const { gw } = await chainedGateway(t);
  const audra = await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('audra')) });
  t.is(audra.status, 200);
  t.like(audra.body, { ok: true, writers: [{ writer: 'gw-1' }] });
  t.true(audra.body.checked > 0);
  t.like(await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('alice')) }), {
    status: 403,
    body: { code: 'ROLE_DENIED' },
  });
  t.like(await gw.call('GET', '/api/audit/verify'), { status: 401, body: { code: 'SESSION_REQUIRED' } });
  t.like(await gw.call('POST', '/api/audit/verify', { headers: bearer(await gw.login('audra')) }), { status: 405 });
});

const badQueries: [string, RegExp][] = [
  ['from=yesterday', /^from/],
  ['to=2026-03-01', /^to/],
  ['from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', /^from/],
  ['limit=5', /limit/],
];
for (const [query, detail] of badQueries) {
  test(`GET /api/audit/verify?${query} is 400 BAD_REQUEST naming the parameter`, async (t) => {
    const { gw } = await chainedGateway(t);
    const reply = await gw.call('GET', `/api/audit/verify?${query}`, { headers: bearer(await gw.login('admin')) });
    t.is(reply.status, 400);
    t.is(reply.body.code, 'BAD_REQUEST');
    t.regex(reply.body.detail, detail);
  });
}

test('an unreadable audit store is 503 AUDIT_UNAVAILABLE, never a clean answer', async (t) => {
  const { gw, log } = await chainedGateway(t);
  const admin = bearer(await gw.login('admin'));
  log.faults.down = true;
  const reply = await gw.call('GET', '/api/audit/verify', { headers: admin });
  t.is(reply.status, 503);
  t.is(reply.body.code, 'AUDIT_UNAVAILABLE');
  t.false('ok' in reply.body);
});

test('fail closed: when the chained entry cannot be stored, the key is not created', async (t) => {
  const keys = auditTestKeys();
  const file = join(scratchDir('keygate-failclosed-'), 'audit.db');
  const log = SqliteAuditLog.open({ file, chain: testChain('gw-1', keys) });
  const gw = await startFaultyGateway(t, {}, { auditLog: log, auditVerifyKeys: { macKey: keys.macKey, publicKeys: trusted(keys) } });
  t.teardown(() => gw.close());
  const alice = await gw.login('alice');
  const other = new Database(file);
  t.teardown(() => other.close());
  other.exec(
    "CREATE TRIGGER refuse BEFORE INSERT ON audit_entry WHEN NEW.operation = 'keys.create' BEGIN SELECT RAISE(ROLLBACK, 'disk says no'); END;",
  );
  gw.keyServerCalls.length = 0;
  const refused = await gw.call('POST', '/api/keys', { headers: bearer(alice), body: {} });
  t.is(refused.status, 503);
  t.is(refused.body.code, 'AUDIT_UNAVAILABLE');
  t.deepEqual(gw.keyServerCalls, [], 'the key server was never asked');
  other.exec('DROP TRIGGER refuse');
  t.is((await gw.call('POST', '/api/keys', { headers: bearer(alice), body: {} })).status, 201);
  const verified = await gw.call('GET', '/api/audit/verify', { headers: bearer(await gw.login('admin')) });
  t.like(verified.body, { ok: true }, 'the refused write left no hole in the chain');
});
