import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import type { AuditRecord } from '../../src/domain/audit/audit.js';
import { sessionRef } from '../../src/domain/session/session-id.js';
import { clientKeyPair } from '../_support/client-key.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { PASSWORDS, startFaultyGateway, startGateway, type TestGateway } from '../_support/gateway.js';
import { healthUntil } from '../_support/health-wait.js';
import type { Reply } from '../_support/http.js';

/** Every stored record, oldest first (the tests move the clock between requests). */
async function records(log: MemoryAuditLog | FaultyAuditLog): Promise<AuditRecord[]> {
  return [...(await log.query({ limit: 500 })).items].reverse();
}

/** A record without the fields that differ on every run. */
/** A record without its per-request values; the client address is checked apart (always the socket's). */
function shape(record: AuditRecord) {
  const { id: _id, at: _at, requestId: _requestId, clientAddress, ...rest } = record;
  if (clientAddress !== '127.0.0.1') throw new Error(`record ${record.id} names client address ${clientAddress}, not the socket's`);
  return rest;
}

/** Calls, then lets a millisecond pass, so that records sort in request order. */
function stepper(gw: TestGateway) {
  return async (method: string, path: string, session?: string, body?: unknown): Promise<Reply> => {
    const reply = await gw.call(method, path, {
      headers: session ? { 'X-Session': session } : {},
      ...(body === undefined ? {} : { body }),
    });
    gw.clock.advance(1);
    return reply;
  };
}

test('each of the seven operations but health leaves one record saying who did what, to what, and how it ended; health probes leave none', async (t) => {
  const log = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { auditLog: log });
  const step = stepper(gw);
  t.is((await step('GET', '/health')).status, 200);
  t.is((await step('GET', '/api/health')).status, 200);
  const alice = (await step('POST', '/login', undefined, { user: 'alice', password: PASSWORDS.alice })).body.sessionId;
  const bob = (await step('POST', '/login', undefined, { user: 'bob', password: PASSWORDS.bob })).body.sessionId;
  const ttag = (await step('POST', '/keys', alice)).body.ttag;
  const exported = await step('POST', '/keys/export', alice, { ttag, clientPubKey: clientKeyPair().publicKey });
  await step('POST', '/keys/grant', alice, { ttag, grantee: 'bob' });
  await step('POST', '/keys/revoke', alice, { ttag, grantee: 'bob' });
  await step('POST', '/logout', bob);
  const [a, b] = [sessionRef(alice), sessionRef(bob)];
  const stored = await records(log);
  // api-surface.md "Additions in 8.1.x": health probes are not audited (metrics count them).
  t.deepEqual(stored.map(shape), [
    { operation: 'login', principal: 'alice', sessionRef: a, outcome: 'ok', status: 200 },
    { operation: 'login', principal: 'bob', sessionRef: b, outcome: 'ok', status: 200 },
    { operation: 'keys.generate', principal: 'alice', sessionRef: a, object: ttag, outcome: 'ok', status: 200 },
    { operation: 'keys.export', principal: 'alice', sessionRef: a, object: ttag, outcome: 'ok', status: 200 },
    { operation: 'keys.grant', principal: 'alice', sessionRef: a, object: `${ttag} bob`, outcome: 'ok', status: 200 },
    { operation: 'keys.revoke', principal: 'alice', sessionRef: a, object: `${ttag} bob`, outcome: 'ok', status: 200 },
    { operation: 'logout', principal: 'bob', sessionRef: b, outcome: 'ok', status: 200 },
  ]);
  t.is(stored[3]!.requestId, exported.headers.get('x-request-id')!, 'a record carries the request id the response showed');
  t.deepEqual(
    stored.map((r) => r.at),
    stored.map((_, i) => stored[0]!.at + i),
    'at is when the request arrived',
  );
});

test('refusals are recorded as denied and failures as error, with status and code; an unknown path is no operation', async (t) => {
  const log = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { auditLog: log });
  const step = stepper(gw);
  await step('POST', '/login', undefined, { user: 'alice', password: 'not-her-password' });
  await step('POST', '/keys');
  await step('POST', '/keys', 'A'.repeat(43));
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const ttag = (await step('POST', '/keys', alice)).body.ttag;
  await step('POST', '/keys/export', bob, { ttag, clientPubKey: clientKeyPair().publicKey });
  await step('POST', '/keys/export', alice, { ttag, clientPubKey: Buffer.alloc(65, 4).toString('base64') });
  await step('POST', '/keys/grant', alice, { grantee: 'bob' });
  await step('GET', '/nowhere');
  const stored = (await records(log)).filter((r) => r.outcome !== 'ok');
  t.deepEqual(
    stored.map(shape),
    [
      { operation: 'login', principal: 'alice', outcome: 'denied', status: 401, code: 'WRONG_CREDENTIAL' },
      { operation: 'keys.generate', outcome: 'denied', status: 401, code: 'SESSION_REQUIRED' },
      { operation: 'keys.generate', outcome: 'denied', status: 401, code: 'SESSION_UNKNOWN' },
      {
        operation: 'keys.export',
        principal: 'bob',
        sessionRef: sessionRef(bob),
        object: ttag,
        outcome: 'denied',
        status: 403,
        code: 'ACL_DENIED',
      },
      {
        operation: 'keys.export',
        principal: 'alice',
        sessionRef: sessionRef(alice),
        object: ttag,
        outcome: 'error',
        status: 400,
        code: 'BAD_REQUEST',
      },
      { operation: 'keys.grant', principal: 'alice', sessionRef: sessionRef(alice), outcome: 'error', status: 400, code: 'BAD_REQUEST' },
    ],
    'the unknown path left no record',
  );
  t.false((await records(log)).some((r) => r.outcome === 'pending'));
});

/** A faulty-key-server gateway over a faulty memory audit log, with alice's key and two sessions. */
async function brokenStoreSetup(t: ExecutionContext) {
  const audit = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startFaultyGateway(t, {}, { auditLog: audit });
  const alice = await gw.login('alice');
  const bob = await gw.login('bob');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
  const exportAs = (session: string) =>
    gw.call('POST', '/keys/export', { headers: { 'X-Session': session }, body: { ttag, clientPubKey: clientKeyPair().publicKey } });
  const post = (path: string, session: string, body?: unknown) =>
    gw.call('POST', path, { headers: { 'X-Session': session }, ...(body === undefined ? {} : { body }) });
  gw.keyServerCalls.length = 0;
  return { gw, audit, alice, bob, ttag, exportAs, post };
}

function assertRefused(t: import('ava').ExecutionContext, reply: Reply, status = 500): void {
  t.is(reply.status, status);
  t.is(reply.headers.get('retry-after'), '5');
  t.regex(JSON.stringify(reply.body), /audit log unavailable/);
}

test('with the audit store down, generate and export are refused before the key server is asked', async (t) => {
  const { gw, audit, alice, exportAs, post } = await brokenStoreSetup(t);
  audit.faults.down = true;
  assertRefused(t, await post('/keys', alice));
  const exported = await exportAs(alice);
  assertRefused(t, exported);
  t.false('wrapped' in exported.body);
  t.deepEqual(gw.keyServerCalls, [], 'no key was created and no key material was read');
});

test('with the audit store down, a grant is refused and does not take effect; nor does a revoke', async (t) => {
  const { gw, audit, alice, bob, ttag, exportAs, post } = await brokenStoreSetup(t);
  audit.faults.down = true;
  assertRefused(t, await post('/keys/grant', alice, { ttag, grantee: 'bob' }));
  audit.faults.down = false;
  t.is((await exportAs(bob)).status, 403, 'bob was not granted');
  t.is((await post('/keys/grant', alice, { ttag, grantee: 'bob' })).status, 200);
  audit.faults.down = true;
  assertRefused(t, await post('/keys/revoke', alice, { ttag, grantee: 'bob' }));
  audit.faults.down = false;
  t.is((await exportAs(bob)).status, 200, 'bob was not revoked');
  t.false(gw.keyServerCalls.includes('revoke'));
});

test('with the audit store down, login mints no session (502, seed 000 rule 1) and logout ends none', async (t) => {
  const { gw, audit, alice } = await brokenStoreSetup(t);
  audit.faults.down = true;
  const login = await gw.call('POST', '/login', { body: { user: 'carol', password: PASSWORDS.carol } });
  t.is(login.status, 502);
  t.false('sessionId' in login.body);
  assertRefused(t, await gw.call('POST', '/logout', { headers: { 'X-Session': alice } }));
  t.deepEqual(gw.keyServerCalls, [], 'no password was tried and no token revoked');
  const health = await gw.call('GET', '/health');
  t.is(health.status, 200, 'health still answers');
  t.deepEqual({ ok: health.body.ok, sessions: health.body.sessions }, { ok: false, sessions: 2 });
  audit.faults.down = false;
  t.is((await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).status, 200, "alice's session is still alive");
  t.is((await healthUntil(gw, true, { path: '/health' })).body.ok, true, 'health is ok again once the store is back');
});

test('a request that performs nothing is still answered while the store is down; the lost record is logged', async (t) => {
  const { gw, audit } = await brokenStoreSetup(t);
  audit.faults.down = true;
  const unauthenticated = await gw.call('POST', '/keys');
  t.is(unauthenticated.status, 401);
  t.true(
    gw.logger.lines.some(
      (line) => line.level === 'error' && line.message === 'audit record not stored' && line.fields.operation === 'keys.generate',
    ),
  );
});

test('an export whose outcome cannot be recorded is withheld, and its record stays pending', async (t) => {
  const { audit, alice, ttag, exportAs } = await brokenStoreSetup(t);
  audit.faults.failComplete = true;
  const exported = await exportAs(alice);
  assertRefused(t, exported);
  t.false('wrapped' in exported.body, 'no key material leaves without its record');
  audit.faults.failComplete = false;
  const { items } = await audit.query({ operation: 'keys.export' });
  t.is(items.length, 1);
  t.like(items[0], { principal: 'alice', object: ttag, outcome: 'pending', status: 0, requestId: exported.headers.get('x-request-id')! });
});
