import { request } from 'node:http';
import test from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { sessionRef } from '../../src/domain/session/session-id.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

/** Findings of the HTTP fuzzer, each replayed through the real gateway on a real socket. */

for (const path of ['/api/certificates/parse', '/api/certificates/verify']) {
  test(`GET ${path} is 405 with Allow: POST (the {id} route must not shadow a fixed path)`, async (t) => {
    const gw = await startGateway(t);
    t.teardown(() => gw.close());
    const bearer = { Authorization: `Bearer ${await gw.login('alice')}` };
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await gw.call(method, path, { headers: bearer });
      t.is(reply.status, 405, `${method} ${path}`);
      t.is(reply.body.code, 'METHOD_NOT_ALLOWED');
      t.is(reply.headers.get('allow'), 'POST');
    }
    const id = 'a'.repeat(64);
    t.is((await gw.call('GET', `/api/certificates/${id}`, { headers: bearer })).body.code, 'NOT_FOUND', 'an id still reaches the read');
  });
}

test('GET /api/audit?operation= accepts every operation id the gateway records, camelCase ones included', async (t) => {
  const log = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { auditLog: log });
  t.teardown(() => gw.close());
  const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
  const put = await gw.call('PUT', '/api/principals/alice/sender-key', { headers: admin, body: { jwk: { kty: 'EC' } } });
  t.is(put.status, 400);
  const reply = await gw.call('GET', '/api/audit?operation=principals.senderKey.put', { headers: admin });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(
    reply.body.items.map((r: { operation: string }) => r.operation),
    ['principals.senderKey.put'],
  );
  t.is((await gw.call('GET', '/api/audit?operation=keys..export', { headers: admin })).status, 400, 'a malformed id is still refused');
});

/** Sends one request with a header of `size` bytes on a raw socket; answers status, headers and body. */
function oversizedHeader(url: string, path: string, size: number): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET', headers: { 'X-Filler': 'x'.repeat(size) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('headers over 16 KiB get 431 with the JSON error body of the surface asked for', async (t) => {
  const gw = await startGateway(t);
  t.teardown(() => gw.close());
  const api = await oversizedHeader(gw.url, '/api/keys', 20_000);
  t.is(api.status, 431);
  t.regex(api.type ?? '', /^application\/json/);
  const body = JSON.parse(api.body);
  t.is(body.code, 'BAD_REQUEST');
  t.regex(body.detail, /header/i);
  const root = await oversizedHeader(gw.url, '/keys', 20_000);
  t.is(root.status, 431);
  t.regex(JSON.parse(root.body).error, /header/i);
  t.is((await gw.call('GET', '/api/health')).status, 200, 'the gateway still answers');
});

test('a password login on /api/session is recorded with its principal and session reference', async (t) => {
  const log = new MemoryAuditLog();
  const gw = await startGateway(t, {}, { auditLog: log });
  t.teardown(() => gw.close());
  const ok = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(ok.status, 201);
  gw.clock.advance(1);
  const bad = await gw.call('POST', '/api/session', { body: { user: 'bob', password: 'wrong-password' } });
  t.is(bad.status, 401);
  const records = [...(await log.query({ limit: 500 })).items].reverse().filter((r) => r.operation === 'session.password');
  t.is(records.length, 2);
  t.like(records[0], { principal: 'alice', sessionRef: sessionRef(ok.body.sessionId), outcome: 'ok', status: 201 });
  t.like(records[1], { principal: 'bob', outcome: 'denied', status: 401 });
  t.is(records[1]!.sessionRef, undefined);
});
