import test from 'ava';
import type { z } from 'zod';
import { responses } from '../../src/transports/koa/api/api-responses.js';
import { clientKeyPair } from '../_support/client-key.js';
import { startGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';

/** The answers of the real gateway match the response schemas the document is generated from. */
test('success answers of the /api surface match their documented schemas', async (t) => {
  const gw = await startGateway(t);
  t.teardown(() => gw.close());
  const admin = { Authorization: `Bearer ${await gw.login('admin')}` };
  const alice = { Authorization: `Bearer ${await gw.login('alice')}` };
  const check = async (
    schema: z.ZodType,
    status: number,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const reply = await gw.call(method, path, { headers, ...(body === undefined ? {} : { body }) });
    t.is(reply.status, status, `${method} ${path}: ${reply.text}`);
    const parsed = schema.safeParse(reply.body);
    t.true(parsed.success, `${method} ${path}: ${parsed.success ? '' : parsed.error.message}`);
    t.deepEqual(parsed.data, reply.body, `${method} ${path}: no field the schema does not name`);
    return reply.body;
  };
  await check(responses.session, 201, 'POST', '/api/session', {}, { user: 'bob', password: 'bob-password-2' });
  await check(responses.session, 200, 'GET', '/api/session', alice);
  await check(responses.sessions, 200, 'GET', '/api/sessions', alice);
  const key = await check(responses.key, 201, 'POST', '/api/keys', alice, { keyLen: 24, label: 'l', expiresAt: '2099-01-01T00:00:00Z' });
  const ttag = Buffer.from(key.ttag, 'base64').toString('base64url');
  await check(responses.key, 200, 'GET', `/api/keys/${ttag}`, alice);
  await check(responses.exported, 200, 'POST', `/api/keys/${ttag}/export`, alice, { clientPubKey: clientKeyPair().publicKey });
  await check(responses.aclEntry, 200, 'PUT', `/api/keys/${ttag}/acl/bob`, alice, { rights: ['read'] });
  await check(responses.acl, 200, 'GET', `/api/keys/${ttag}/acl`, alice);
  await check(responses.access, 200, 'GET', `/api/keys/${ttag}/access`, alice);
  const sealed = await check(responses.encrypted, 200, 'POST', '/api/crypto/encrypt', alice, { ttag: key.ttag, plaintext: 'aGk=' });
  await check(responses.decrypted, 200, 'POST', '/api/crypto/decrypt', alice, {
    ttag: key.ttag,
    ciphertext: sealed.ciphertext,
    iv: sealed.iv,
    authTag: sealed.authTag,
  });
  const mac = await check(responses.mac, 200, 'POST', '/api/crypto/mac', alice, { ttag: key.ttag, data: 'aGk=' });
  await check(responses.macValid, 200, 'POST', '/api/crypto/mac/verify', alice, { ttag: key.ttag, data: 'aGk=', mac: mac.mac });
  const signer = await makeSigner('ES256');
  await check(responses.session, 201, 'POST', '/api/session/scoped', alice, { objects: [key.ttag], senderKey: signer.publicJwk });
  await check(responses.key, 200, 'POST', `/api/keys/${ttag}/expire`, alice);
  await check(responses.principals, 200, 'GET', '/api/principals?limit=2', admin);
  await check(responses.principal, 201, 'POST', '/api/principals', admin, {
    name: 'dave',
    kind: 'user',
    displayName: 'Dave',
    password: 'dave-password-5',
  });
  await check(responses.principal, 200, 'PUT', '/api/principals/dave', admin, { disabled: true });
  await check(responses.principals, 200, 'GET', '/api/principals/alice/groups', admin);
  await check(responses.senderKey, 200, 'PUT', '/api/principals/svc/sender-key', admin, { jwk: signer.publicJwk });
  await check(responses.principals, 200, 'GET', '/api/groups/ops/members', admin);
  await check(responses.roles, 200, 'GET', '/api/roles', admin);
  await check(responses.role, 200, 'PUT', '/api/roles/reader', admin, { operations: ['audit.read'] });
  await check(responses.certificates, 200, 'GET', '/api/certificates', admin);
  await check(responses.certificates, 200, 'GET', '/api/trust/authorities', admin);
  await check(responses.version, 200, 'GET', '/api/server/version', admin);
  await check(responses.config, 200, 'GET', '/api/server/config', admin);
  const parameters = await check(responses.parameters, 200, 'GET', '/api/server/parameters', admin);
  const first = parameters.items[0];
  await check(responses.parameter, 200, 'PUT', `/api/server/parameters/${first.name}`, admin, { value: first.value });
  await check(responses.policy, 200, 'GET', '/api/policy/provisioning', admin);
  await check(responses.policy, 200, 'PUT', '/api/policy/provisioning/defaultRoles', admin, { value: ['user'] });
  const page = await check(responses.auditPage, 200, 'GET', '/api/audit?limit=5', admin);
  await check(responses.auditRecord, 200, 'GET', `/api/audit/${page.items[0].id}`, admin);
  await check(responses.health, 200, 'GET', '/api/health', {});
});
