import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import { createIdentityCertificate } from '../../src/keyserver/identity/identity-certificate.js';
import { bearer } from '../_support/api-client.js';
import { type GatewayProcess, killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { call } from '../_support/http.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { startIssuer, type TestIssuer } from '../_support/workload-issuer.js';

/**
 * The workload key-set settings (docs/spec.md §4.24 item 4) set as an operator sets them: in the
 * environment of a real `keygate serve`, each seen by what a workload sign-in then does.
 */
test.after.always(killAllGateways);

const dir = scratchDir('keygate-jwks-settings-');
const ADMIN = 'jwks-settings-admin-1';
const passwordFile = join(dir, 'admin-password');
writeFileSync(passwordFile, `${ADMIN}\n`, { mode: 0o600 });
const AUDIENCE = 'https://keygate.example';

function serve(t: ExecutionContext, env: Record<string, string> = {}): Promise<GatewayProcess> {
  return spawnGateway(t, { TE_KEYSERVER_ADMIN_PASSWORD_FILE: passwordFile, TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'data-')), ...env });
}

/** Trusts the issuer, its key set at `jwksUri`, as an administrator of the gateway. */
async function trust(t: ExecutionContext, gateway: GatewayProcess, issuer: TestIssuer, jwksUri = issuer.jwksUri): Promise<void> {
  const login = await call(gateway.url, 'POST', '/api/session', { body: { user: 'admin', password: ADMIN } });
  t.is(login.status, 201, login.text);
  const put = await call(gateway.url, 'PUT', '/api/trust/issuers/ci', {
    headers: bearer(login.body.sessionId as string),
    body: {
      issuer: issuer.issuer,
      jwksUri,
      audiences: [AUDIENCE],
      algorithms: ['ES256'],
      principal: 'ci-{repository_id}',
      createPrincipals: true,
      roles: ['service'],
    },
  });
  t.is(put.status, 200, put.text);
}

/** A workload sign-in with a fresh token of the issuer (its newest key, or the one given). */
async function signIn(gateway: GatewayProcess, issuer: TestIssuer, key?: ReturnType<TestIssuer['current']>) {
  const now = Math.floor(Date.now() / 1000);
  const token = await issuer.sign(
    { sub: 'repo:octo-org/app', aud: AUDIENCE, repository_id: '42', iat: now, exp: now + 300 },
    { ...(key ? { key } : {}) },
  );
  return await call(gateway.url, 'POST', '/api/session/jwt', { body: { token } });
}

test('TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: unset, a key set over plain http is never fetched; listing its host lets the workload in', async (t) => {
  const [plain, listed, issuer] = await Promise.all([
    serve(t),
    serve(t, { TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: '127.0.0.1' }),
    startIssuer(t),
  ]);
  await Promise.all([trust(t, plain, issuer), trust(t, listed, issuer)]);
  const refused = await signIn(plain, issuer);
  t.is(refused.status, 401, refused.text);
  t.is(refused.body.code, 'WRONG_CREDENTIAL');
  t.regex(refused.body.detail as string, /^jwks: http: is not fetched from 127\.0\.0\.1/);
  t.is(issuer.fetches(), 0, 'not even asked');
  const admitted = await signIn(listed, issuer);
  t.is(admitted.status, 201, admitted.text);
  t.like(admitted.body, { kind: 'jwt' });
});

test('TE_GATEWAY_JWKS_TIMEOUT_MS=250: a key set server that never answers refuses the sign-in naming that wait', async (t) => {
  const [gateway, issuer] = await Promise.all([
    serve(t, { TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: '127.0.0.1', TE_GATEWAY_JWKS_TIMEOUT_MS: '250' }),
    startIssuer(t),
  ]);
  await trust(t, gateway, issuer);
  issuer.mode = 'hang';
  const refused = await signIn(gateway, issuer);
  t.is(refused.status, 401, refused.text);
  t.is(refused.body.detail, 'jwks: no answer within 250 ms');
});

test('TE_GATEWAY_JWKS_CACHE_SECONDS=1: a key the issuer withdrew is accepted from the cached set, and refused once the set is a second old', async (t) => {
  const [gateway, issuer] = await Promise.all([
    serve(t, { TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: '127.0.0.1', TE_GATEWAY_JWKS_CACHE_SECONDS: '1' }),
    startIssuer(t),
  ]);
  await trust(t, gateway, issuer);
  const first = issuer.current();
  t.is((await signIn(gateway, issuer)).status, 201);
  await issuer.rotate(true);
  const cached = await signIn(gateway, issuer, first);
  t.is(cached.status, 201, `the cached set still holds the withdrawn key: ${cached.text}`);
  t.is(issuer.fetches(), 1);
  // The gateway is a process of its own: its cached set ages by its own clock, so this test waits it out.
  await sleep(1_200);
  const refused = await signIn(gateway, issuer, first);
  t.is(refused.status, 401, refused.text);
  t.is(issuer.fetches(), 2, 'fetched again once the cached set was a second old');
  t.is((await signIn(gateway, issuer)).status, 201, 'the new key signs in');
});

test('TE_GATEWAY_JWKS_CA_FILE: a key set served under a private CA is refused with the public roots alone, and fetched once the CA file names it', async (t) => {
  const issuer = await startIssuer(t);
  const identity = await createIdentityCertificate({ hosts: ['localhost'], commonName: 'localhost' });
  const server = createServer({ cert: identity.certPem, key: identity.keyPem }, (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: issuer.published() })),
  );
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  // Every loopback address: localhost may resolve to 127.0.0.1 or to ::1 first.
  await new Promise<void>((ready) => server.listen(0, ready));
  const jwksUri = `https://localhost:${(server.address() as AddressInfo).port}/jwks`;
  const caFile = join(dir, 'issuer-ca.pem');
  writeFileSync(caFile, identity.certPem);
  const [publicRoots, privateCa] = await Promise.all([
    serve(t, { TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: 'localhost' }),
    serve(t, { TE_GATEWAY_JWKS_PLAIN_HTTP_HOSTS: 'localhost', TE_GATEWAY_JWKS_CA_FILE: caFile }),
  ]);
  await Promise.all([trust(t, publicRoots, issuer, jwksUri), trust(t, privateCa, issuer, jwksUri)]);
  const refused = await signIn(publicRoots, issuer);
  t.is(refused.status, 401, refused.text);
  t.regex(refused.body.detail as string, /^jwks: /);
  const admitted = await signIn(privateCa, issuer);
  t.is(admitted.status, 201, admitted.text);
});
