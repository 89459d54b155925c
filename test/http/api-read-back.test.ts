import { generateKeyPairSync } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { type ApiSession, asSession, createKey, pathTtag } from '../_support/api-client.js';
import { createAuthority, createLeaf, type TestCertificate } from '../_support/certificates.js';
import type { Faults, WriteOperation } from '../_support/faulty-key-server.js';
import { startFaultyGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';

/** What a case may use: admin and alice sessions, one of alice's keys, a trusted authority. */
interface Stage {
  readonly admin: ApiSession;
  readonly alice: ApiSession;
  readonly key: string;
  readonly authority: TestCertificate;
  readonly authorityId: string;
}

interface Case {
  readonly title: string;
  readonly fault: WriteOperation;
  /** Runs with the fault off, before the write. */
  readonly arrange?: (stage: Stage) => Promise<unknown>;
  readonly write: (stage: Stage) => Promise<Reply>;
}

/** Writes the key server acknowledges but does not perform: the read-back finds them missing. */
const dropped: Case[] = [
  { title: 'expiring a key', fault: 'expireKey', write: (s) => s.alice.post(`/api/keys/${s.key}/expire`) },
  { title: 'disabling a key', fault: 'disableKey', write: (s) => s.alice.post(`/api/keys/${s.key}/disable`) },
  {
    title: 'enabling a key',
    fault: 'enableKey',
    arrange: (s) => s.alice.post(`/api/keys/${s.key}/disable`),
    write: (s) => s.alice.post(`/api/keys/${s.key}/enable`),
  },
  {
    title: 'publishing a signing key',
    fault: 'setPublished',
    arrange: async (s) => s.alice.put('/api/aliases/signer', { ttag: (await createKey(s.alice, { type: 'ec-p256' })).ttag }),
    write: (s) => s.alice.put('/api/keys/alias%2Fsigner/published', { published: true }),
  },
  { title: 'setting a tag', fault: 'putKeyTag', write: (s) => s.alice.put(`/api/keys/${s.key}/tags/env`, { value: 'prod' }) },
  {
    title: 'deleting a tag',
    fault: 'deleteKeyTag',
    arrange: (s) => s.alice.put(`/api/keys/${s.key}/tags/env`, { value: 'prod' }),
    write: (s) => s.alice.del(`/api/keys/${s.key}/tags/env`),
  },
  { title: 'scheduling a key deletion', fault: 'scheduleKeyDeletion', write: (s) => s.alice.post(`/api/keys/${s.key}/schedule-deletion`) },
  {
    title: 'cancelling a key deletion',
    fault: 'cancelKeyDeletion',
    arrange: (s) => s.alice.post(`/api/keys/${s.key}/schedule-deletion`),
    write: (s) => s.alice.post(`/api/keys/${s.key}/cancel-deletion`),
  },
  { title: 'putting an ACL entry', fault: 'grant', write: (s) => s.alice.put(`/api/keys/${s.key}/acl/bob`, { rights: ['read'] }) },
  {
    title: 'deleting an ACL entry',
    fault: 'revoke',
    arrange: (s) => s.alice.put(`/api/keys/${s.key}/acl/bob`, { rights: ['read'] }),
    write: (s) => s.alice.del(`/api/keys/${s.key}/acl/bob`),
  },
  { title: 'setting an alias', fault: 'putAlias', write: (s) => s.alice.put('/api/aliases/orders', { ttag: s.key }) },
  {
    title: 'deleting an alias',
    fault: 'deleteAlias',
    arrange: (s) => s.alice.put('/api/aliases/orders', { ttag: s.key }),
    write: (s) => s.alice.del('/api/aliases/orders'),
  },
  {
    title: 'creating a principal',
    fault: 'createPrincipal',
    write: (s) => s.admin.post('/api/principals', { name: 'dora', kind: 'user' }),
  },
  { title: 'updating a principal', fault: 'updatePrincipal', write: (s) => s.admin.put('/api/principals/bob', { displayName: 'Robert' }) },
  { title: 'deleting a principal', fault: 'deletePrincipal', write: (s) => s.admin.del('/api/principals/bob') },
  { title: 'adding a group member', fault: 'addGroupMember', write: (s) => s.admin.put('/api/groups/ops/members/bob') },
  {
    title: 'removing a group member',
    fault: 'removeGroupMember',
    arrange: (s) => s.admin.put('/api/groups/ops/members/bob'),
    write: (s) => s.admin.del('/api/groups/ops/members/bob'),
  },
  { title: 'defining a role', fault: 'putRole', write: (s) => s.admin.put('/api/roles/reader', { operations: ['keys.read'] }) },
  { title: 'redefining a role', fault: 'putRole', write: (s) => s.admin.put('/api/roles/user', { operations: ['keys.read'] }) },
  {
    title: 'registering a sender key',
    fault: 'putSenderKey',
    write: (s) =>
      s.admin.put('/api/principals/bob/sender-key', {
        jwk: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
      }),
  },
  {
    title: 'trusting an authority',
    fault: 'addTrustAuthority',
    write: async (s) => s.admin.post('/api/trust/authorities', { pem: (await createAuthority('second CA')).pem }),
  },
  { title: 'removing an authority', fault: 'removeTrustAuthority', write: (s) => s.admin.del(`/api/trust/authorities/${s.authorityId}`) },
  {
    title: 'enrolling a certificate',
    fault: 'enrollCertificate',
    write: async (s) => s.admin.post('/api/trust/enrollments', { principal: 'bob', pem: (await createLeaf(s.authority, 'b')).pem }),
  },
  {
    title: 'setting a server parameter',
    fault: 'setParameter',
    write: (s) => s.admin.put('/api/server/parameters/maxPendingLogins', { value: 77 }),
  },
  {
    title: 'setting a policy parameter',
    fault: 'setPolicy',
    write: (s) => s.admin.put('/api/policy/provisioning/autoProvision', { value: true }),
  },
];

/** Writes the key server performs with other values than asked: the read-back finds them different. */
const altered: Case[] = [
  { title: 'setting a tag', fault: 'putKeyTag', write: (s) => s.alice.put(`/api/keys/${s.key}/tags/env`, { value: 'prod' }) },
  {
    title: 'putting an ACL entry',
    fault: 'grant',
    write: (s) => s.alice.put(`/api/keys/${s.key}/acl/bob`, { rights: ['read', 'export'] }),
  },
  {
    title: 'creating a principal',
    fault: 'createPrincipal',
    write: (s) => s.admin.post('/api/principals', { name: 'dora', kind: 'user', displayName: 'Dora' }),
  },
  {
    title: 'updating a principal',
    fault: 'updatePrincipal',
    write: (s) => s.admin.put('/api/principals/bob', { roles: ['user', 'auditor'] }),
  },
  { title: 'defining a role', fault: 'putRole', write: (s) => s.admin.put('/api/roles/reader', { operations: ['keys.read', 'acl.read'] }) },
  {
    title: 'enrolling a certificate',
    fault: 'enrollCertificate',
    write: async (s) => s.admin.post('/api/trust/enrollments', { principal: 'bob', pem: (await createLeaf(s.authority, 'b')).pem }),
  },
  {
    title: 'setting a server parameter',
    fault: 'setParameter',
    write: (s) => s.admin.put('/api/server/parameters/maxPendingLogins', { value: 77 }),
  },
  {
    title: 'setting a policy parameter',
    fault: 'setPolicy',
    write: (s) => s.admin.put('/api/policy/provisioning/nameAttribute', { value: 'UID' }),
  },
];

async function stage(t: ExecutionContext) {
  const gw = await startFaultyGateway(t);
  const admin = asSession(gw, await gw.login('admin'));
  const alice = asSession(gw, await gw.login('alice'));
  const key = pathTtag((await createKey(alice)).ttag);
  const authority = await createAuthority('keygate test CA');
  const authorityId = (await admin.post('/api/trust/authorities', { pem: authority.pem })).body.id as string;
  return { gw, stage: { admin, alice, key, authority, authorityId } };
}

function run(cases: Case[], mode: keyof Pick<Faults, 'dropWrites' | 'alterWrites'>, code: 'NOT_SAVED' | 'NOT_VERIFIED') {
  for (const c of cases) {
    test(`${c.title}: a write the key server ${mode === 'dropWrites' ? 'drops' : 'alters'} answers 409 ${code}`, async (t) => {
      const { gw, stage: s } = await stage(t);
      await c.arrange?.(s);
      gw.faults[mode] = [c.fault];
      const reply = await c.write(s);
      t.is(reply.status, 409, reply.text);
      t.is(reply.body.code, code);
      t.is(typeof reply.body.detail, 'string');
    });
  }
}

run(dropped, 'dropWrites', 'NOT_SAVED');
run(altered, 'alterWrites', 'NOT_VERIFIED');

test('with no fault switched on, the same writes succeed through the fault injector', async (t) => {
  const { stage: s } = await stage(t);
  t.is((await s.alice.put(`/api/keys/${s.key}/acl/bob`, { rights: ['read'] })).status, 200);
  t.is((await s.admin.post('/api/principals', { name: 'dora', kind: 'user' })).status, 201);
  t.is((await s.admin.put('/api/roles/reader', { operations: ['keys.read'] })).status, 200);
  t.is((await s.admin.put('/api/policy/provisioning/autoProvision', { value: true })).status, 200);
});
