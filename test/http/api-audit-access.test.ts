import test, { type ExecutionContext } from 'ava';
import { MemoryAuditLog } from '../../src/adapters/audit-log/memory-audit-log.js';
import { type ApiSession, createKey, signIn } from '../_support/api-client.js';
import { createAuthority, createLeaf } from '../_support/certificates.js';
import { FaultyAuditLog } from '../_support/faulty-audit-log.js';
import { startGateway } from '../_support/gateway.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function startAudited(t: ExecutionContext) {
  const log = new FaultyAuditLog(new MemoryAuditLog());
  const gw = await startGateway(t, {}, { auditLog: log });
  return { gw, log };
}

async function anyRecordId(session: ApiSession): Promise<string> {
  const page = await session.get('/api/audit?limit=1');
  if (page.status !== 200 || page.body.items.length === 0) throw new Error(`no audit record to read: ${page.status} ${page.text}`);
  return page.body.items[0].id as string;
}

test('an auditor reads the audit log and its records; a user is 403 ROLE_DENIED', async (t) => {
  const { gw } = await startAudited(t);
  const audra = await signIn(gw, 'audra');
  const alice = await signIn(gw, 'alice');
  await createKey(alice);
  const page = await audra.get('/api/audit');
  t.is(page.status, 200);
  t.true(page.body.items.some((r: { operation: string; principal?: string }) => r.operation === 'keys.create' && r.principal === 'alice'));
  const id = await anyRecordId(audra);
  t.like(await audra.get(`/api/audit/${id}`), { status: 200, body: { id } });
  t.like(await alice.get('/api/audit'), { status: 403, body: { code: 'ROLE_DENIED' } });
  t.like(await alice.get(`/api/audit/${id}`), { status: 403, body: { code: 'ROLE_DENIED' } });
});

test("the key server's roles decide: a group's auditor role lets its members read, and stops when they leave", async (t) => {
  const { gw } = await startAudited(t);
  const admin = await signIn(gw, 'admin');
  const alice = await signIn(gw, 'alice');
  t.is((await alice.get('/api/audit')).status, 403);
  t.is((await admin.put('/api/principals/ops', { roles: ['auditor'] })).status, 200);
  t.is((await admin.put('/api/groups/ops/members/alice')).status, 204);
  t.is((await alice.get('/api/audit')).status, 200, 'the same session, now with a group role');
  t.is((await admin.del('/api/groups/ops/members/alice')).status, 204);
  t.like(await alice.get('/api/audit'), { status: 403, body: { code: 'ROLE_DENIED' } });
});

test('encrypt, MAC, MAC check, certificate parse and verify run without the audit store; decrypt and writes do not', async (t) => {
  const { gw, log } = await startAudited(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 32 });
  const sealed = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('quiet') })).body;
  const { mac } = (await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).body;
  const leaf = await createLeaf(await createAuthority('audit CA'), 'audit-leaf');
  log.faults.down = true;
  t.is((await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('still') })).status, 200);
  t.is((await alice.post('/api/crypto/mac', { ttag, data: b64('m') })).status, 200);
  t.like(await alice.post('/api/crypto/mac/verify', { ttag, data: b64('m'), mac }), { status: 200, body: { valid: true } });
  t.like(await alice.post('/api/certificates/parse', { pem: leaf.pem }), { status: 200, body: { subject: 'CN=audit-leaf' } });
  t.like(await alice.post('/api/certificates/verify', { pem: leaf.pem }), { status: 200, body: { trusted: false } });
  const { alg: _alg, sealed: _sealed, ...fields } = sealed;
  const opened = await alice.post('/api/crypto/decrypt', { ttag, ...fields });
  t.like(opened, { status: 503, body: { code: 'AUDIT_UNAVAILABLE' } });
  t.false('plaintext' in opened.body, 'no plaintext without its record');
  t.like(await alice.post('/api/keys', {}), { status: 503, body: { code: 'AUDIT_UNAVAILABLE' } });
});

test('key creation, encryption and decryption are each recorded with the key and the caller', async (t) => {
  const { gw, log } = await startAudited(t);
  const alice = await signIn(gw, 'alice');
  const { ttag } = await createKey(alice, { keyLen: 16 });
  const sealed = (await alice.post('/api/crypto/encrypt', { ttag, plaintext: b64('x') })).body;
  const { alg: _alg, sealed: _sealed, ...fields } = sealed;
  t.is((await alice.post('/api/crypto/decrypt', { ttag, ...fields })).status, 200);
  const { items } = await log.query({});
  const byOperation = new Map(items.map((r) => [r.operation, r]));
  t.like(byOperation.get('crypto.encrypt'), { object: ttag, principal: 'alice', outcome: 'ok', status: 200 });
  t.like(byOperation.get('crypto.decrypt'), { object: ttag, principal: 'alice', outcome: 'ok', status: 200 });
  t.like(byOperation.get('keys.create'), { object: ttag, outcome: 'ok', status: 201 });
});

test('an ACL change and a membership change are recorded with both parties, as the root surface records a grant', async (t) => {
  const { gw, log } = await startAudited(t);
  const alice = await signIn(gw, 'alice');
  const admin = await signIn(gw, 'admin');
  const { ttag } = await createKey(alice);
  const path = `/api/keys/${Buffer.from(ttag, 'base64').toString('base64url')}/acl/bob`;
  t.is((await alice.put(path, { rights: ['read'] })).status, 200);
  t.is((await alice.del(path)).status, 204);
  t.is((await admin.put('/api/groups/ops/members/carol')).status, 204);
  const { items } = await log.query({});
  const objects = (operation: string) => items.filter((r) => r.operation === operation).map((r) => r.object);
  t.deepEqual(objects('acl.put'), [`${ttag} bob`], 'the key as standard base64, then the grantee');
  t.deepEqual(objects('acl.delete'), [`${ttag} bob`]);
  t.deepEqual(objects('groups.members.add'), ['{"group":"ops","member":"carol"}']);
});
