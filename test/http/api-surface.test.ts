import test from 'ava';
import { startGateway } from '../_support/gateway.js';

type Auth = 'S' | '-';

/** api-surface.md, operations 1-51 in order: method, path, and whether a session is needed. */
const SURFACE: readonly [number, string, string, Auth][] = [
  [1, 'POST', '/api/session', '-'],
  [2, 'POST', '/api/session/certificate/challenge', '-'],
  [3, 'POST', '/api/session/certificate', '-'],
  [4, 'POST', '/api/session/scoped', 'S'],
  [5, 'POST', '/api/session/delegated', 'S'],
  [6, 'DELETE', '/api/session', '-'],
  [7, 'GET', '/api/session', 'S'],
  [8, 'GET', '/api/sessions', 'S'],
  [9, 'POST', '/api/crypto/encrypt', 'S'],
  [10, 'POST', '/api/crypto/decrypt', 'S'],
  [11, 'POST', '/api/crypto/mac', 'S'],
  [12, 'POST', '/api/crypto/mac/verify', 'S'],
  [13, 'POST', '/api/keys', 'S'],
  [14, 'GET', '/api/keys/{ttag}', 'S'],
  [15, 'POST', '/api/keys/{ttag}/export', 'S'],
  [16, 'POST', '/api/keys/{ttag}/expire', 'S'],
  [17, 'GET', '/api/keys/{ttag}/acl', 'S'],
  [18, 'PUT', '/api/keys/{ttag}/acl/{principal}', 'S'],
  [19, 'DELETE', '/api/keys/{ttag}/acl/{principal}', 'S'],
  [20, 'GET', '/api/keys/{ttag}/access', 'S'],
  [21, 'GET', '/api/principals', 'S'],
  [22, 'POST', '/api/principals', 'S'],
  [23, 'GET', '/api/principals/{name}', 'S'],
  [24, 'PUT', '/api/principals/{name}', 'S'],
  [25, 'DELETE', '/api/principals/{name}', 'S'],
  [26, 'PUT', '/api/principals/{name}/password', 'S'],
  [27, 'GET', '/api/principals/{name}/groups', 'S'],
  [28, 'PUT', '/api/principals/{name}/sender-key', 'S'],
  [29, 'GET', '/api/groups/{name}/members', 'S'],
  [30, 'PUT', '/api/groups/{name}/members/{member}', 'S'],
  [31, 'DELETE', '/api/groups/{name}/members/{member}', 'S'],
  [32, 'GET', '/api/roles', 'S'],
  [33, 'GET', '/api/roles/{role}', 'S'],
  [34, 'PUT', '/api/roles/{role}', 'S'],
  [35, 'GET', '/api/certificates', 'S'],
  [36, 'GET', '/api/certificates/{id}', 'S'],
  [37, 'POST', '/api/certificates/parse', 'S'],
  [38, 'POST', '/api/certificates/verify', 'S'],
  [39, 'GET', '/api/trust/authorities', 'S'],
  [40, 'POST', '/api/trust/authorities', 'S'],
  [41, 'DELETE', '/api/trust/authorities/{id}', 'S'],
  [42, 'POST', '/api/trust/enrollments', 'S'],
  [43, 'GET', '/api/server/version', 'S'],
  [44, 'GET', '/api/server/config', 'S'],
  [45, 'GET', '/api/server/parameters', 'S'],
  [46, 'PUT', '/api/server/parameters/{name}', 'S'],
  [47, 'GET', '/api/policy/provisioning', 'S'],
  [48, 'PUT', '/api/policy/provisioning/{parameter}', 'S'],
  [49, 'GET', '/api/audit', 'S'],
  [50, 'GET', '/api/audit/{id}', 'S'],
  [51, 'GET', '/api/health', '-'],
];

/**
 * Additions of api-surface.md "Additions in 8.1.x" that are routes of the table (so they get the
 * session, proof, audit and 405 handling of every route) but are not among the 51 operations.
 */
const ADDITIONS: readonly [string, string, Auth][] = [
  ['POST', '/api/session/jwt', '-'],
  ['POST', '/api/crypto/rewrap', 'S'],
  ['POST', '/api/crypto/datakey', 'S'],
  ['POST', '/api/crypto/datakey/open', 'S'],
  ['POST', '/api/crypto/sign', 'S'],
  ['POST', '/api/crypto/sign/verify', 'S'],
  ['POST', '/api/crypto/sign-jwt', 'S'],
  ['GET', '/api/keys/{ttag}/public-key', 'S'],
  ['GET', '/api/keys/{ttag}/jwks', 'S'],
  ['GET', '/api/keys', 'S'],
  ['GET', '/api/keys/{ttag}/versions', 'S'],
  ['POST', '/api/keys/{ttag}/rotate', 'S'],
  ['PUT', '/api/keys/{ttag}/min-version', 'S'],
  ['PUT', '/api/keys/{ttag}/published', 'S'],
  ['POST', '/api/keys/{ttag}/disable', 'S'],
  ['POST', '/api/keys/{ttag}/enable', 'S'],
  ['POST', '/api/keys/{ttag}/schedule-deletion', 'S'],
  ['POST', '/api/keys/{ttag}/cancel-deletion', 'S'],
  ['PUT', '/api/keys/{ttag}/tags/{name}', 'S'],
  ['DELETE', '/api/keys/{ttag}/tags/{name}', 'S'],
  ['GET', '/api/aliases', 'S'],
  ['PUT', '/api/aliases/{alias}', 'S'],
  ['DELETE', '/api/aliases/{alias}', 'S'],
  ['GET', '/api/groups', 'S'],
  ['GET', '/api/trust/issuers', 'S'],
  ['GET', '/api/trust/issuers/{name}', 'S'],
  ['PUT', '/api/trust/issuers/{name}', 'S'],
  ['DELETE', '/api/trust/issuers/{name}', 'S'],
  ['GET', '/api/audit/verify', 'S'],
];

interface Operation {
  readonly security: readonly unknown[];
}

/**
 * The /api operations of the document. It also describes the seven root operations and serves itself
 * at /api/openapi.json (api-surface.md 8.1.x "Discovery"): neither is one of the 51.
 */
function documentOperations(doc: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/') && path !== '/api/openapi.json')
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        auth: (operation.security.length === 0 ? '-' : 'S') as Auth,
      })),
    );
}

test('the surface of api-surface.md is 51 operations over 42 paths, five of them without a session', (t) => {
  t.is(SURFACE.length, 51);
  t.deepEqual(
    SURFACE.map(([n]) => n),
    Array.from({ length: 51 }, (_, i) => i + 1),
  );
  t.is(new Set(SURFACE.map(([, method, path]) => `${method} ${path}`)).size, 51);
  t.is(new Set(SURFACE.map(([, , path]) => path)).size, 42);
  t.deepEqual(
    SURFACE.filter(([, , , auth]) => auth === '-').map(([n]) => n),
    [1, 2, 3, 6, 51],
  );
});

test('the route table serves exactly the operations of the surface, each with its session need', async (t) => {
  const gw = await startGateway(t);
  const all = documentOperations(gw.gateway.openApi() as { paths: Record<string, Record<string, Operation>> });
  const additions = new Set(ADDITIONS.map(([method, path]) => `${method} ${path}`));
  t.deepEqual(
    all.filter((op) => additions.has(op.key)).map((op) => [op.key, op.auth]),
    ADDITIONS.map(([method, path, a]) => [`${method} ${path}`, a]),
  );
  const served = all.filter((op) => !additions.has(op.key));
  t.deepEqual(served.map((op) => op.key).sort(), SURFACE.map(([, method, path]) => `${method} ${path}`).sort());
  t.is(served.length, 51);
  t.is(new Set(served.map((op) => op.path)).size, 42);
  const auth = new Map(SURFACE.map(([, method, path, a]) => [`${method} ${path}`, a]));
  for (const op of served) t.is(op.auth as Auth | undefined, auth.get(op.key), op.key);
  t.is(served.filter((op) => op.auth === '-').length, 5);
  const doc = gw.gateway.openApi() as { paths: Record<string, Record<string, { tags: string[] }>> };
  const others = Object.entries(doc.paths).filter(([path]) => !served.some((op) => op.path === path));
  t.deepEqual(others.map(([path, methods]) => `${Object.keys(methods).join()} ${path}`).sort(), [
    'get /api/aliases',
    'get /api/audit/verify',
    'get /api/groups',
    'get /api/keys/{ttag}/jwks',
    'get /api/keys/{ttag}/public-key',
    'get /api/keys/{ttag}/versions',
    'get /api/openapi.json',
    'get /api/trust/issuers',
    'get /health',
    'get,put,delete /api/trust/issuers/{name}',
    'post /api/crypto/datakey',
    'post /api/crypto/datakey/open',
    'post /api/crypto/rewrap',
    'post /api/crypto/sign',
    'post /api/crypto/sign-jwt',
    'post /api/crypto/sign/verify',
    'post /api/keys/{ttag}/cancel-deletion',
    'post /api/keys/{ttag}/disable',
    'post /api/keys/{ttag}/enable',
    'post /api/keys/{ttag}/rotate',
    'post /api/keys/{ttag}/schedule-deletion',
    'post /api/session/jwt',
    'post /keys',
    'post /keys/export',
    'post /keys/grant',
    'post /keys/revoke',
    'post /login',
    'post /logout',
    'put /api/keys/{ttag}/min-version',
    'put /api/keys/{ttag}/published',
    'put,delete /api/aliases/{alias}',
    'put,delete /api/keys/{ttag}/tags/{name}',
  ]);
  const tags: Record<string, string> = {
    '/api/openapi.json': 'discovery',
    '/api/audit/verify': 'audit',
    '/api/crypto/rewrap': 'crypto',
    '/api/crypto/datakey': 'crypto',
    '/api/crypto/datakey/open': 'crypto',
    '/api/crypto/sign': 'crypto',
    '/api/crypto/sign/verify': 'crypto',
    '/api/crypto/sign-jwt': 'crypto',
    '/api/keys/{ttag}/public-key': 'keys',
    '/api/keys/{ttag}/jwks': 'keys',
    '/api/keys/{ttag}/rotate': 'keys',
    '/api/keys/{ttag}/min-version': 'keys',
    '/api/keys/{ttag}/published': 'keys',
    '/api/keys/{ttag}/versions': 'keys',
    '/api/keys/{ttag}/disable': 'keys',
    '/api/keys/{ttag}/enable': 'keys',
    '/api/keys/{ttag}/tags/{name}': 'keys',
    '/api/keys/{ttag}/schedule-deletion': 'keys',
    '/api/keys/{ttag}/cancel-deletion': 'keys',
    '/api/groups': 'groups',
    '/api/aliases': 'aliases',
    '/api/aliases/{alias}': 'aliases',
    '/api/session/jwt': 'sessions',
    '/api/trust/issuers': 'trust',
    '/api/trust/issuers/{name}': 'trust',
  };
  for (const [path, methods] of others) t.deepEqual(Object.values(methods)[0]!.tags, [tags[path] ?? 'seven operations'], path);
});
