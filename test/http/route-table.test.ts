import test from 'ava';
import { gatewayRoutes } from '../../src/transports/koa/routing/gateway-routes.js';
import type { GatewayServices } from '../../src/use-cases/index.js';
import { startGateway } from '../_support/gateway.js';

/**
 * Every declared operation of both surfaces: method, path, the operation id its access-log line and
 * metrics name, and the methods its path allows (`Allow`, in the order answered). The 51 /api
 * operations, the key states' disable and enable, the key list and its tags, scheduled deletion's schedule and cancel (docs/spec.md §4.23 item 5), `GET /api/audit/verify`, `GET /api/groups`, `GET /api/openapi.json` and the seven root operations.
 */
const OPERATIONS: readonly (readonly [string, string, string, string])[] = [
  ['POST', '/api/session', 'session.password', 'POST, DELETE, HEAD, GET'],
  ['POST', '/api/session/certificate/challenge', 'session.certificate.challenge', 'POST'],
  ['POST', '/api/session/certificate', 'session.certificate', 'POST'],
  ['POST', '/api/session/jwt', 'session.jwt', 'POST'],
  ['POST', '/api/session/scoped', 'session.scoped', 'POST'],
  ['POST', '/api/session/delegated', 'session.delegated', 'POST'],
  ['DELETE', '/api/session', 'session.logout', 'POST, DELETE, HEAD, GET'],
  ['GET', '/api/session', 'session.read', 'POST, DELETE, HEAD, GET'],
  ['GET', '/api/sessions', 'sessions.list', 'HEAD, GET'],
  ['POST', '/api/crypto/encrypt', 'crypto.encrypt', 'POST'],
  ['POST', '/api/crypto/decrypt', 'crypto.decrypt', 'POST'],
  ['POST', '/api/crypto/rewrap', 'crypto.rewrap', 'POST'],
  ['POST', '/api/crypto/mac', 'crypto.mac', 'POST'],
  ['POST', '/api/crypto/mac/verify', 'crypto.mac.verify', 'POST'],
  ['POST', '/api/crypto/datakey', 'crypto.datakey', 'POST'],
  ['POST', '/api/crypto/datakey/open', 'crypto.datakey.open', 'POST'],
  ['POST', '/api/crypto/sign', 'crypto.sign', 'POST'],
  ['POST', '/api/crypto/sign/verify', 'crypto.sign.verify', 'POST'],
  ['POST', '/api/crypto/sign-jwt', 'crypto.sign-jwt', 'POST'],
  ['GET', '/api/keys/:ttag/public-key', 'keys.public-key', 'HEAD, GET'],
  ['GET', '/api/keys/:ttag/jwks', 'keys.jwks', 'HEAD, GET'],
  ['POST', '/api/keys', 'keys.create', 'POST, HEAD, GET'],
  ['GET', '/api/keys/:ttag', 'keys.read', 'HEAD, GET'],
  ['GET', '/api/keys/:ttag/versions', 'keys.versions', 'HEAD, GET'],
  ['POST', '/api/keys/:ttag/export', 'keys.export', 'POST'],
  ['POST', '/api/keys/:ttag/rotate', 'keys.rotate', 'POST'],
  ['PUT', '/api/keys/:ttag/min-version', 'keys.min-version', 'PUT'],
  ['PUT', '/api/keys/:ttag/published', 'keys.publish', 'PUT'],
  ['POST', '/api/keys/:ttag/expire', 'keys.expire', 'POST'],
  ['POST', '/api/keys/:ttag/disable', 'keys.disable', 'POST'],
  ['POST', '/api/keys/:ttag/enable', 'keys.enable', 'POST'],
  ['POST', '/api/keys/:ttag/schedule-deletion', 'keys.schedule-deletion', 'POST'],
  ['POST', '/api/keys/:ttag/cancel-deletion', 'keys.cancel-deletion', 'POST'],
  ['GET', '/api/keys', 'keys.list', 'POST, HEAD, GET'],
  ['PUT', '/api/keys/:ttag/tags/:name', 'keys.tag', 'PUT, DELETE'],
  ['DELETE', '/api/keys/:ttag/tags/:name', 'keys.untag', 'PUT, DELETE'],
  ['GET', '/api/keys/:ttag/acl', 'acl.read', 'HEAD, GET'],
  ['PUT', '/api/keys/:ttag/acl/:principal', 'acl.put', 'PUT, DELETE'],
  ['DELETE', '/api/keys/:ttag/acl/:principal', 'acl.delete', 'PUT, DELETE'],
  ['GET', '/api/keys/:ttag/access', 'acl.access', 'HEAD, GET'],
  ['GET', '/api/aliases', 'aliases.list', 'HEAD, GET'],
  ['PUT', '/api/aliases/:alias', 'aliases.put', 'PUT, DELETE'],
  ['DELETE', '/api/aliases/:alias', 'aliases.delete', 'PUT, DELETE'],
  ['GET', '/api/principals', 'principals.list', 'HEAD, GET, POST'],
  ['POST', '/api/principals', 'principals.create', 'HEAD, GET, POST'],
  ['GET', '/api/principals/:name', 'principals.read', 'HEAD, GET, PUT, DELETE'],
  ['PUT', '/api/principals/:name', 'principals.update', 'HEAD, GET, PUT, DELETE'],
  ['DELETE', '/api/principals/:name', 'principals.delete', 'HEAD, GET, PUT, DELETE'],
  ['PUT', '/api/principals/:name/password', 'principals.password', 'PUT'],
  ['GET', '/api/principals/:name/groups', 'principals.groups', 'HEAD, GET'],
  ['PUT', '/api/principals/:name/sender-key', 'principals.senderKey.put', 'PUT'],
  ['GET', '/api/groups', 'groups.list', 'HEAD, GET'],
  ['GET', '/api/groups/:name/members', 'groups.members.list', 'HEAD, GET'],
  ['PUT', '/api/groups/:name/members/:member', 'groups.members.add', 'PUT, DELETE'],
  ['DELETE', '/api/groups/:name/members/:member', 'groups.members.remove', 'PUT, DELETE'],
  ['GET', '/api/roles', 'roles.list', 'HEAD, GET'],
  ['GET', '/api/roles/:role', 'roles.read', 'HEAD, GET, PUT'],
  ['PUT', '/api/roles/:role', 'roles.put', 'HEAD, GET, PUT'],
  ['GET', '/api/certificates', 'certificates.list', 'HEAD, GET'],
  ['GET', '/api/certificates/:id', 'certificates.read', 'HEAD, GET'],
  ['POST', '/api/certificates/parse', 'certificates.parse', 'POST'],
  ['POST', '/api/certificates/verify', 'certificates.verify', 'POST'],
  ['GET', '/api/trust/authorities', 'trust.authorities.list', 'HEAD, GET, POST'],
  ['POST', '/api/trust/authorities', 'trust.authorities.add', 'HEAD, GET, POST'],
  ['DELETE', '/api/trust/authorities/:id', 'trust.authorities.delete', 'DELETE'],
  ['POST', '/api/trust/enrollments', 'trust.enrollments.add', 'POST'],
  ['GET', '/api/trust/issuers', 'trust.issuers.list', 'HEAD, GET'],
  ['GET', '/api/trust/issuers/:name', 'trust.issuers.read', 'HEAD, GET, PUT, DELETE'],
  ['PUT', '/api/trust/issuers/:name', 'trust.issuers.put', 'HEAD, GET, PUT, DELETE'],
  ['DELETE', '/api/trust/issuers/:name', 'trust.issuers.delete', 'HEAD, GET, PUT, DELETE'],
  ['GET', '/api/server/version', 'server.version', 'HEAD, GET'],
  ['GET', '/api/server/config', 'server.config', 'HEAD, GET'],
  ['GET', '/api/server/parameters', 'server.parameters.list', 'HEAD, GET'],
  ['PUT', '/api/server/parameters/:name', 'server.parameters.put', 'PUT'],
  ['GET', '/api/policy/provisioning', 'policy.provisioning.read', 'HEAD, GET'],
  ['PUT', '/api/policy/provisioning/:parameter', 'policy.provisioning.write', 'PUT'],
  ['GET', '/api/audit', 'audit.query', 'HEAD, GET'],
  ['GET', '/api/audit/verify', 'audit.verify', 'HEAD, GET'],
  ['GET', '/api/audit/:id', 'audit.get', 'HEAD, GET'],
  ['GET', '/api/health', 'health', 'HEAD, GET'],
  ['GET', '/api/openapi.json', 'openapi', 'HEAD, GET'],
  ['POST', '/login', 'login', 'POST'],
  ['POST', '/logout', 'logout', 'POST'],
  ['POST', '/keys', 'keys.generate', 'POST'],
  ['POST', '/keys/export', 'keys.export', 'POST'],
  ['POST', '/keys/grant', 'keys.grant', 'POST'],
  ['POST', '/keys/revoke', 'keys.revoke', 'POST'],
  ['GET', '/health', 'health', 'HEAD, GET'],
];

const SAMPLES: Readonly<Record<string, string>> = {
  ttag: 'AAAAAAAAAAAAAAAAAAAAAA',
  principal: 'bob',
  name: 'bob',
  member: 'carol',
  role: 'auditor',
  id: 'a'.repeat(64),
  parameter: 'x',
  alias: 'sample-alias',
};

function sample(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => SAMPLES[name]!);
}

test('the declared routes are exactly these 88 operations: 51 on /api, the two of data keys, the five of signing keys and their publication, the four of key versions, the two of key states, the key list and its tags, the two of scheduled deletion, the three of aliases, audit/verify, the groups list, workload sign-in, the four of trusted issuers, openapi.json and the seven', (t) => {
  const declared = gatewayRoutes({} as GatewayServices, { gatewayVersion: '0.0.0' });
  t.is(OPERATIONS.length, 88);
  t.is(declared.filter((route) => route.surface === 'root').length, 7);
  t.deepEqual(
    declared.map((route) => `${route.method} ${route.path}`),
    OPERATIONS.map(([method, path]) => `${method} ${path}`),
  );
});

test('every operation is reached by its method and path, and another method is refused from the same table', async (t) => {
  const gw = await startGateway(t);
  let n = 0;
  const operationOf = (requestId: string) =>
    gw.logger.lines.find((line) => line.message === 'request' && line.fields?.requestId === requestId)?.fields?.operation;
  for (const [method, template, operation, allow] of OPERATIONS) {
    const path = sample(template);
    const methods = method === 'GET' ? ['GET', 'HEAD'] : [method];
    for (const each of methods) {
      const requestId = `route-${++n}`;
      const reply = await gw.call(each, path, { headers: { 'X-Request-Id': requestId } });
      t.false([404, 405].includes(reply.status), `${each} ${path}: ${reply.status}`);
      t.is(operationOf(requestId), operation, `${each} ${path}`);
    }
    const allowed = allow.split(', ');
    const others = [['GET', 'POST', 'PUT', 'DELETE'].find((other) => !allowed.includes(other))!, 'PATCH'];
    for (const other of others) {
      const reply = await gw.call(other, path);
      if (path.startsWith('/api/')) {
        t.is(reply.status, 405, `${other} ${path}`);
        t.is(reply.body.code, 'METHOD_NOT_ALLOWED', `${other} ${path}`);
        t.is(reply.headers.get('allow'), allow, `${other} ${path}`);
      } else {
        // docs/spec.md §12 item 4: the root surface has no 405; another method is no route.
        t.is(reply.status, 404, `${other} ${path}`);
        t.deepEqual(reply.body, { error: `no route ${other} ${path}` });
        t.is(reply.headers.get('allow'), null);
      }
    }
  }
});

test('a path belongs to its surface by its exact prefix; within it paths match case-insensitively and fixed ones are no parameter values', async (t) => {
  const gw = await startGateway(t);
  const session = { Authorization: `Bearer ${await gw.login('alice')}` };
  // `/API/...` is not under /api: a root path, so no /api route takes it and it is answered as the root does.
  t.deepEqual((await gw.call('GET', '/API/session', { headers: session })).body, { error: 'no route GET /API/session' });
  t.deepEqual((await gw.call('POST', '/API/keys/AAAAAAAAAAAAAAAAAAAAAA/export')).body, {
    error: 'no route POST /API/keys/AAAAAAAAAAAAAAAAAAAAAA/export',
  });
  t.is((await gw.call('GET', '/api/SESSION', { headers: session })).body.user, 'alice');
  t.is((await gw.call('POST', '/api/Keys/AAAAAAAAAAAAAAAAAAAAAA/Export')).body.code, 'SESSION_REQUIRED');
  for (const path of ['/api/Certificates/parse', '/api/certificates/PARSE']) {
    const reply = await gw.call('GET', path, { headers: session });
    t.is(reply.status, 405, path);
    t.is(reply.headers.get('allow'), 'POST', path);
  }
  t.is((await gw.call('GET', '/api/nope')).body.code, 'NOT_FOUND');
  t.is((await gw.call('GET', '/api/keys/AAAAAAAAAAAAAAAAAAAAAA/export/')).body.code, 'NOT_FOUND');
});
