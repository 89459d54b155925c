import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { createAuthority, createLeaf, signChallenge } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function startWithLog(t: ExecutionContext) {
  const log = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { auditLog: log });
  return { log, gw };
}

async function recordOf(log: MemoryAuditLog, requestId: string | null) {
  const { items } = await log.query({ limit: 500 });
  return items.find((record) => record.requestId === requestId);
}

test('a password login on /api/session names the principal tried, the session minted and the client address', async (t) => {
  const { log, gw } = await startWithLog(t);
  t.teardown(() => gw.close());
  const login = await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'alice-password-1' } });
  t.is(login.status, 201);
  const record = await recordOf(log, login.headers.get('x-request-id'));
  t.like(record, { operation: 'session.password', outcome: 'ok', principal: 'alice', clientAddress: '127.0.0.1' });
  t.regex(record?.sessionRef ?? '', /^[A-Za-z0-9_-]{6,}$/);
  const failed = await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'wrong-password' } });
  t.like(await recordOf(log, failed.headers.get('x-request-id')), {
    operation: 'session.password',
    outcome: 'denied',
    principal: 'alice',
    clientAddress: '127.0.0.1',
  });
});

test('every record carries the socket address, never a forwarded one', async (t) => {
  const { log, gw } = await startWithLog(t);
  t.teardown(() => gw.close());
  const alice = await gw.login('alice');
  const reply = await gw.call('GET', '/api/session', { headers: { ...bearer(alice), 'X-Forwarded-For': '203.0.113.9' } });
  t.like(await recordOf(log, reply.headers.get('x-request-id')), { principal: 'alice', clientAddress: '127.0.0.1' });
});

async function boundService(gw: TestGateway) {
  const admin = await gw.login('admin');
  const authority = await createAuthority('svc CA');
  const leaf = await createLeaf(authority, 'svc');
  const signer = await makeSigner('RS256');
  await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers: bearer(admin), body: { principal: 'svc', pem: leaf.pem } });
  await gw.call('PUT', '/api/principals/svc/sender-key', { headers: bearer(admin), body: { jwk: signer.publicJwk } });
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(leaf, challenge.body.challenge) },
  });
  return { signer, login, session: login.body.sessionId as string };
}

test('a certificate login names its principal; a delegated session names the service it acts for', async (t) => {
  const { log, gw } = await startWithLog(t);
  t.teardown(() => gw.close());
  const { signer, login, session } = await boundService(gw);
  t.like(await recordOf(log, login.headers.get('x-request-id')), { operation: 'session.certificate', outcome: 'ok', principal: 'svc' });
  // Issue 12: a service delegates only to the principals an administrator listed for it.
  await gw.call('PUT', '/api/principals/svc', { headers: bearer(await gw.login('admin')), body: { delegates: ['alice'] } });
  const delegated = await gw.bound(signer, 'POST', '/api/session/delegated', { bearer: session }, { principal: 'alice' });
  t.is(delegated.status, 201);
  const used = await gw.bound(signer, 'GET', '/api/session', { bearer: delegated.body.sessionId });
  t.like(await recordOf(log, used.headers.get('x-request-id')), {
    operation: 'session.read',
    principal: 'alice',
    actingFor: 'svc',
    clientAddress: '127.0.0.1',
  });
});
