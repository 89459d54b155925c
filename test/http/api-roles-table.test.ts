import test from 'ava';
import { BUILT_IN_ROLES } from '../../src/keyserver/model/built-in-roles.js';
import { apiRouteTable } from '../../src/transports/koa/api/api.router.js';
import type { GatewayServices } from '../../src/use-cases/index.js';
import type { Operation } from '../../src/wire/operations.js';
import { bearer, pathTtag } from '../_support/api-client.js';
import { createAuthority } from '../_support/certificates.js';
import { clientKeyPair } from '../_support/client-key.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';

/**
 * Who may call what (api-surface.md "Identity and keys"): every operation of the /api surface, as
 * each built-in role, on one gateway. The operations come from the route table; a route without a
 * row here fails the test, so a new operation cannot go unchecked.
 */
type Role = keyof typeof BUILT_IN_ROLES;
type Outcome = readonly [status: number, code?: string];

interface Row {
  /** The role operation the route needs; `null` for the routes that need no session. */
  readonly needs: Operation | null;
  readonly path?: string;
  readonly body?: unknown;
  /** The answer to a caller allowed to call it (or to anyone, for a route with no session). */
  readonly allowed: Outcome;
  /** The call ends the session it is made with: it gets a session of its own. */
  readonly endsSession?: true;
}

const ROBOT = { name: 'robot', password: 'robot-password-5' };
const CALLERS: Readonly<Record<Role, string>> = { admin: 'admin', user: 'alice', service: ROBOT.name, auditor: 'audra' };
const PASSWORD_OF: Readonly<Record<string, string>> = { ...PASSWORDS, [ROBOT.name]: ROBOT.password };
const NO_KEY = pathTtag(Buffer.alloc(16, 7).toString('base64'));
const NO_ID = 'f'.repeat(64);
const NOT_FOUND: Outcome = [404, 'NOT_FOUND'];
const EVERYONE: readonly Role[] = ['admin', 'user', 'service', 'auditor'];
const KEY_HOLDERS: readonly Role[] = ['admin', 'user', 'service'];
const READERS: readonly Role[] = ['admin', 'auditor'];
const ADMIN: readonly Role[] = ['admin'];

/**
 * Who holds each operation the table uses, as api-surface.md "Identity and keys" states it (not read
 * from the code's role table, so a change there that the contract does not allow fails here).
 */
const HOLDERS: Readonly<Partial<Record<Operation, readonly Role[]>>> = {
  'session.read': EVERYONE,
  'sessions.list': EVERYONE,
  'session.scope': KEY_HOLDERS,
  'session.delegate': ['admin', 'service'],
  ...Object.fromEntries(
    (
      [
        'crypto.encrypt',
        'crypto.decrypt',
        'crypto.mac',
        'keys.create',
        'keys.read',
        'keys.versions',
        'keys.export',
        'keys.expire',
        'keys.state',
        'keys.delete',
        'keys.rotate',
        'keys.min-version',
        'keys.publish',
        'keys.list',
        'keys.tag',
        'crypto.sign',
        'crypto.verify',
        'keys.public-key',
      ] as const
    ).map((op) => [op, KEY_HOLDERS]),
  ),
  ...Object.fromEntries((['acl.read', 'acl.write', 'acl.access'] as const).map((op) => [op, KEY_HOLDERS])),
  ...Object.fromEntries((['aliases.read', 'aliases.write'] as const).map((op) => [op, KEY_HOLDERS])),
  ...Object.fromEntries((['certificates.read', 'certificates.parse', 'certificates.verify'] as const).map((op) => [op, KEY_HOLDERS])),
  ...Object.fromEntries(
    (
      [
        'principals.list',
        'principals.read',
        'principals.groups',
        'roles.read',
        'server.config',
        'server.parameters.read',
        'audit.read',
      ] as const
    ).map((op) => [op, READERS]),
  ),
  'server.version': EVERYONE,
  ...Object.fromEntries(
    (
      [
        'principals.create',
        'principals.update',
        'principals.delete',
        'principals.password',
        'principals.sender-key',
        'groups.read',
        'groups.write',
        'roles.write',
        'trust.read',
        'trust.write',
        'trust.enroll',
        'server.parameters.write',
        'policy.read',
        'policy.write',
      ] as const
    ).map((op) => [op, ADMIN]),
  ),
};
const DENIED: Outcome = [403, 'ROLE_DENIED'];
const MALFORMED: Outcome = [400, 'CERTIFICATE_MALFORMED'];

async function rows(): Promise<Readonly<Record<string, Row>>> {
  const pem = (await createAuthority('keygate roles CA')).pem;
  const senderKey = (await makeSigner('ES256')).publicJwk;
  const data = Buffer.from('data').toString('base64');
  return {
    'session.password': { needs: null, body: { user: 'alice', password: 'wrong-password' }, allowed: [401, 'WRONG_CREDENTIAL'] },
    'session.certificate.challenge': { needs: null, body: { certificate: 'not a pem' }, allowed: MALFORMED },
    'session.certificate': { needs: null, body: { challengeId: 'unknown', signature: 'AA' }, allowed: [401, 'WRONG_CREDENTIAL'] },
    'session.jwt': { needs: null, body: { token: 'a.b.c' }, allowed: [401, 'WRONG_CREDENTIAL'] },
    'session.scoped': { needs: 'session.scope', body: { objects: [NO_KEY], senderKey }, allowed: NOT_FOUND },
    // Delegation needs a bound session as well as the role: these sessions are not bound, so even a holder
    // is refused (api-bound-sessions covers the bound case).
    'session.delegated': { needs: 'session.delegate', body: { principal: 'alice' }, allowed: DENIED },
    'session.logout': { needs: null, allowed: [204], endsSession: true },
    'session.read': { needs: 'session.read', allowed: [200] },
    'sessions.list': { needs: 'sessions.list', allowed: [200] },
    'crypto.encrypt': { needs: 'crypto.encrypt', body: { ttag: NO_KEY, plaintext: data }, allowed: NOT_FOUND },
    'crypto.decrypt': { needs: 'crypto.decrypt', body: { ttag: NO_KEY, ciphertext: data, iv: data, authTag: data }, allowed: NOT_FOUND },
    'crypto.mac': { needs: 'crypto.mac', body: { ttag: NO_KEY, data }, allowed: NOT_FOUND },
    'crypto.mac.verify': { needs: 'crypto.mac', body: { ttag: NO_KEY, data, mac: data }, allowed: NOT_FOUND },
    'keys.create': { needs: 'keys.create', body: {}, allowed: [201] },
    'keys.read': { needs: 'keys.read', path: `/api/keys/${NO_KEY}`, allowed: NOT_FOUND },
    'keys.versions': { needs: 'keys.versions', path: `/api/keys/${NO_KEY}/versions`, allowed: NOT_FOUND },
    'keys.export': {
      needs: 'keys.export',
      path: `/api/keys/${NO_KEY}/export`,
      body: { clientPubKey: clientKeyPair().publicKey },
      allowed: NOT_FOUND,
    },
    'keys.expire': { needs: 'keys.expire', path: `/api/keys/${NO_KEY}/expire`, allowed: NOT_FOUND },
    'keys.disable': { needs: 'keys.state', path: `/api/keys/${NO_KEY}/disable`, allowed: NOT_FOUND },
    'keys.enable': { needs: 'keys.state', path: `/api/keys/${NO_KEY}/enable`, allowed: NOT_FOUND },
    'keys.schedule-deletion': { needs: 'keys.delete', path: `/api/keys/${NO_KEY}/schedule-deletion`, allowed: NOT_FOUND },
    'keys.cancel-deletion': { needs: 'keys.delete', path: `/api/keys/${NO_KEY}/cancel-deletion`, allowed: NOT_FOUND },
    'keys.rotate': { needs: 'keys.rotate', path: `/api/keys/${NO_KEY}/rotate`, allowed: NOT_FOUND },
    'keys.min-version': { needs: 'keys.min-version', path: `/api/keys/${NO_KEY}/min-version`, body: { minVersion: 1 }, allowed: NOT_FOUND },
    'keys.publish': { needs: 'keys.publish', path: `/api/keys/${NO_KEY}/published`, body: { published: true }, allowed: NOT_FOUND },
    'keys.list': { needs: 'keys.list', allowed: [200] },
    'keys.tag': { needs: 'keys.tag', path: `/api/keys/${NO_KEY}/tags/env`, body: { value: 'prod' }, allowed: NOT_FOUND },
    'keys.untag': { needs: 'keys.tag', path: `/api/keys/${NO_KEY}/tags/env`, allowed: NOT_FOUND },
    // Rewrap is a decrypt and an encrypt: the key server asks for both operations (held by the same roles).
    'crypto.rewrap': { needs: 'crypto.decrypt', body: { ttag: NO_KEY, ciphertext: data, iv: data, authTag: data }, allowed: NOT_FOUND },
    'crypto.datakey': { needs: 'crypto.encrypt', body: { ttag: NO_KEY, clientPubKey: clientKeyPair().publicKey }, allowed: NOT_FOUND },
    'crypto.datakey.open': {
      needs: 'crypto.decrypt',
      body: { ttag: NO_KEY, blob: data, clientPubKey: clientKeyPair().publicKey },
      allowed: NOT_FOUND,
    },
    // docs/spec.md §4.25: signing keys, beside the 51.
    'crypto.sign': { needs: 'crypto.sign', body: { ttag: NO_KEY, alg: 'ES256', message: data }, allowed: NOT_FOUND },
    'crypto.sign.verify': {
      needs: 'crypto.verify',
      body: { ttag: NO_KEY, alg: 'ES256', message: data, signature: data },
      allowed: NOT_FOUND,
    },
    'crypto.sign-jwt': { needs: 'crypto.sign', body: { ttag: NO_KEY, claims: { sub: 'x' } }, allowed: NOT_FOUND },
    'keys.public-key': { needs: 'keys.public-key', path: `/api/keys/${NO_KEY}/public-key`, allowed: NOT_FOUND },
    'keys.jwks': { needs: 'keys.public-key', path: `/api/keys/${NO_KEY}/jwks`, allowed: NOT_FOUND },
    'acl.read': { needs: 'acl.read', path: `/api/keys/${NO_KEY}/acl`, allowed: NOT_FOUND },
    'acl.put': { needs: 'acl.write', path: `/api/keys/${NO_KEY}/acl/bob`, body: { rights: ['read'] }, allowed: NOT_FOUND },
    'acl.delete': { needs: 'acl.write', path: `/api/keys/${NO_KEY}/acl/bob`, allowed: NOT_FOUND },
    'acl.access': { needs: 'acl.access', path: `/api/keys/${NO_KEY}/access`, allowed: NOT_FOUND },
    // docs/spec.md §4.23 item 3: aliases, beside the 51.
    'aliases.list': { needs: 'aliases.read', allowed: [200] },
    'aliases.put': { needs: 'aliases.write', path: '/api/aliases/nothing', body: { ttag: NO_KEY }, allowed: NOT_FOUND },
    'aliases.delete': { needs: 'aliases.write', path: '/api/aliases/nothing', allowed: NOT_FOUND },
    'principals.list': { needs: 'principals.list', allowed: [200] },
    'principals.create': { needs: 'principals.create', body: { name: 'carol', kind: 'user' }, allowed: [409, 'CONFLICT'] },
    'principals.read': { needs: 'principals.read', path: '/api/principals/nobody', allowed: NOT_FOUND },
    // Targets that exist where the use case reads before it writes (read-back), so a role that may read
    // principals meets the role check, not a 404.
    'principals.update': { needs: 'principals.update', path: '/api/principals/alice', body: { roles: ['user'] }, allowed: [200] },
    'principals.delete': { needs: 'principals.delete', path: '/api/principals/nobody', allowed: NOT_FOUND },
    'principals.password': {
      needs: 'principals.password',
      path: '/api/principals/bob/password',
      body: { password: 'a-new-password-6' },
      allowed: [204],
    },
    'principals.groups': { needs: 'principals.groups', path: '/api/principals/nobody/groups', allowed: NOT_FOUND },
    'principals.senderKey.put': {
      needs: 'principals.sender-key',
      path: '/api/principals/bob/sender-key',
      body: { jwk: senderKey },
      allowed: [200],
    },
    'groups.list': { needs: 'groups.read', allowed: [200] },
    'groups.members.list': { needs: 'groups.read', path: '/api/groups/nobody/members', allowed: NOT_FOUND },
    // alice adding herself to a group, and changing her own roles, are still management: only admin.
    'groups.members.add': { needs: 'groups.write', path: '/api/groups/ops/members/alice', allowed: [204] },
    'groups.members.remove': { needs: 'groups.write', path: '/api/groups/ops/members/alice', allowed: [204] },
    'roles.list': { needs: 'roles.read', allowed: [200] },
    'roles.read': { needs: 'roles.read', path: '/api/roles/nobody', allowed: NOT_FOUND },
    'roles.put': { needs: 'roles.write', path: '/api/roles/user', body: { operations: BUILT_IN_ROLES.user }, allowed: [200] },
    'certificates.list': { needs: 'certificates.read', allowed: [200] },
    'certificates.read': { needs: 'certificates.read', path: `/api/certificates/${NO_ID}`, allowed: NOT_FOUND },
    'certificates.parse': { needs: 'certificates.parse', body: { pem }, allowed: [200] },
    'certificates.verify': { needs: 'certificates.verify', body: { pem }, allowed: [200] },
    'trust.authorities.list': { needs: 'trust.read', allowed: [200] },
    'trust.authorities.add': { needs: 'trust.write', body: { pem: 'not a pem' }, allowed: MALFORMED },
    'trust.authorities.delete': { needs: 'trust.write', path: `/api/trust/authorities/${NO_ID}`, allowed: NOT_FOUND },
    'trust.enrollments.add': { needs: 'trust.enroll', body: { principal: 'carol', pem: 'not a pem' }, allowed: MALFORMED },
    'trust.issuers.list': { needs: 'trust.read', allowed: [200] },
    'trust.issuers.read': { needs: 'trust.read', path: '/api/trust/issuers/nobody', allowed: NOT_FOUND },
    'trust.issuers.put': {
      needs: 'trust.write',
      path: '/api/trust/issuers/ci',
      body: {
        issuer: 'https://ci.example',
        jwksUri: 'https://ci.example/jwks',
        audiences: ['keygate'],
        algorithms: ['ES256'],
        principal: 'ci-{sub}',
      },
      allowed: [200],
    },
    'trust.issuers.delete': { needs: 'trust.write', path: '/api/trust/issuers/nobody', allowed: NOT_FOUND },
    'server.version': { needs: 'server.version', allowed: [200] },
    'server.config': { needs: 'server.config', allowed: [200] },
    'server.parameters.list': { needs: 'server.parameters.read', allowed: [200] },
    'server.parameters.put': {
      needs: 'server.parameters.write',
      path: '/api/server/parameters/nothing',
      body: { value: 1 },
      allowed: NOT_FOUND,
    },
    'policy.provisioning.read': { needs: 'policy.read', allowed: [200] },
    'policy.provisioning.write': {
      needs: 'policy.write',
      path: '/api/policy/provisioning/nothing',
      body: { value: 1 },
      allowed: NOT_FOUND,
    },
    'audit.query': { needs: 'audit.read', allowed: [200] },
    'audit.get': { needs: 'audit.read', path: '/api/audit/nothing', allowed: NOT_FOUND },
    // 8.1.x addition beside the 51: verification reads the log as audit.read does.
    'audit.verify': { needs: 'audit.read', allowed: [200] },
    health: { needs: null, allowed: [200] },
  };
}

/** What `role` gets: the allowed answer when it holds the operation (or none is needed), else 403 ROLE_DENIED. */
function expected(row: Row, role: Role): Outcome {
  if (row.needs === null) return row.allowed;
  const holders = HOLDERS[row.needs];
  if (holders === undefined) throw new Error(`no holders stated for ${row.needs}`);
  return holders.includes(role) ? row.allowed : DENIED;
}

const ADDED = new Set([
  'audit.verify',
  'keys.rotate',
  'keys.min-version',
  'keys.publish',
  'keys.versions',
  'keys.disable',
  'keys.enable',
  'keys.list',
  'keys.tag',
  'keys.untag',
  'keys.schedule-deletion',
  'keys.cancel-deletion',
  'crypto.rewrap',
  'crypto.datakey',
  'crypto.datakey.open',
  'crypto.sign',
  'crypto.sign.verify',
  'crypto.sign-jwt',
  'keys.public-key',
  'keys.jwks',
  'groups.list',
  'aliases.list',
  'aliases.put',
  'aliases.delete',
  'session.jwt',
  'trust.issuers.list',
  'trust.issuers.read',
  'trust.issuers.put',
  'trust.issuers.delete',
]);

test('each built-in role gets the exact status and code on each of the 51 /api operations, GET /api/audit/verify the key-version routes, the key-state routes, the key list and its tags, the scheduled-deletion routes, the data-key routes, the signing-key routes and their publication, GET /api/groups, the alias routes, workload sign-in and the trusted issuers', async (t) => {
  const routes = apiRouteTable({} as GatewayServices);
  const table = await rows();
  t.is(routes.filter((r) => !ADDED.has(r.operationId)).length, 51);
  t.deepEqual(routes.map((r) => r.operationId).sort(), Object.keys(table).sort(), 'one row per route of the route table');
  const principals = [...SEED.principals, { name: ROBOT.name, kind: 'service' as const, password: ROBOT.password }];
  const gw = await startGateway(t, { keyServer: { kind: 'embedded', seed: { principals }, adminPassword: PASSWORDS.admin } });
  const login = async (user: string) => {
    const reply = await gw.call('POST', '/login', { body: { user, password: PASSWORD_OF[user] } });
    if (reply.status !== 200) throw new Error(`login ${user}: ${reply.status} ${reply.text}`);
    return reply.body.sessionId as string;
  };
  const sessions = new Map<Role, string>();
  for (const role of Object.keys(CALLERS) as Role[]) sessions.set(role, await login(CALLERS[role]));
  const seen: string[] = [];
  const wanted: string[] = [];
  for (const route of routes) {
    const row = table[route.operationId]!;
    for (const role of Object.keys(CALLERS) as Role[]) {
      const session = row.endsSession ? await login(CALLERS[role]) : sessions.get(role)!;
      const path = row.path ?? route.path;
      const reply = await gw.call(route.method, path, { headers: bearer(session), ...(row.body === undefined ? {} : { body: row.body }) });
      const label = `${route.operationId} (${route.method} ${path}) as ${role}`;
      const [status, code] = expected(row, role);
      wanted.push(`${label}: ${status} ${code ?? ''}`.trim());
      seen.push(`${label}: ${reply.status} ${code === undefined ? '' : (reply.body?.code ?? '')}`.trim());
    }
  }
  t.deepEqual(seen, wanted);
});
