import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { GatewayConfigInput } from '../src/app/config/config.js';
import { createGateway } from '../src/app/create-gateway.js';
import { untilKillAll } from '../test/_support/child-processes.js';
import { clientConfig, killAllDaemons, spawnDaemon } from '../test/_support/keyserver-daemon.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import type { LoadClient } from './load-client.js';
import { noFailures } from './load-client.js';
import type { Figure } from './table.js';

/** Sign-ins in flight: below the throttle's places per name and address (docs/spec.md §10 item 2), so none is refused. */
const IN_FLIGHT = 4;
/** The sign-ins are one principal's each: the per-principal cap (docs/spec.md §2.4 item 2) is lifted. */
const NO_CAP = 100_000_000;

/** A local issuer's key set server (the gateway caches it: fetched once) and a token it signed, valid an hour. */
async function localIssuer(): Promise<{ jwksUri: string; token: string; close: () => Promise<void> }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256' }] });
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ iss: 'https://issuer.bench', sub: 'svc-bench', aud: 'keygate', iat: now, exp: now + 3600 })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
    .sign(privateKey);
  const close = () => new Promise<void>((done) => server.close(() => done()));
  return { jwksUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, token, close };
}

/**
 * Workload sign-ins (docs/spec.md §4.24) beside password sign-ins, in the same run on one gateway:
 * `POST /api/session/jwt` with a cached key set (one ES256 verify in the key server) against
 * `POST /api/session` (the password). Embedded, the password is one verifier recomputation in
 * process; over a daemon it is the SRP-6a exchange. The goal is at least twice the password rate.
 */
async function signInFigure(
  load: LoadClient,
  issuer: Awaited<ReturnType<typeof localIssuer>>,
  keyServer: GatewayConfigInput['keyServer'],
  where: string,
): Promise<Figure> {
  const gateway = await createGateway(
    { keyServer, maxSessionsPerPrincipal: NO_CAP, jwksPlainHttpHosts: ['127.0.0.1'], ...DEPLOYED },
    { logger: deployedLogger() },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const admin = await signIn(url);
    const put = await fetch(`${url}/api/trust/issuers/bench`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({
        issuer: 'https://issuer.bench',
        jwksUri: issuer.jwksUri,
        audiences: ['keygate'],
        algorithms: ['ES256'],
        principal: '{sub}',
        createPrincipals: true,
        roles: ['service'],
      }),
    });
    if (put.status !== 200) throw new Error(`PUT /api/trust/issuers/bench: ${put.status} ${await put.text()}`);
    const json = { 'content-type': 'application/json' };
    const jwt = await load.run(`POST /api/session/jwt, ${where}`, {
      url: `${url}/api/session/jwt`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token: issuer.token }),
      connections: IN_FLIGHT,
    });
    const password = await load.run(`POST /api/session, ${where}`, {
      url: `${url}/api/session`,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }),
      connections: IN_FLIGHT,
    });
    noFailures(jwt, password);
    return {
      figure: `POST /api/session/jwt, cached key set, ${IN_FLIGHT} in flight, ${where}`,
      measured: `${jwt.requestsPerSecond.toFixed(0)}/s, ${(jwt.requestsPerSecond / password.requestsPerSecond).toFixed(2)}x password`,
      floor: `POST /api/session (password): ${password.requestsPerSecond.toFixed(0)}/s`,
      value: jwt.requestsPerSecond / password.requestsPerSecond,
      goal: { op: '>=', target: 2, unit: 'x' },
      runs: [jwt, password],
    };
  } finally {
    await gateway.close();
  }
}

export async function figures(load: LoadClient): Promise<Figure[]> {
  const issuer = await localIssuer();
  const data = mkdtempSync(join(tmpdir(), 'keygate-bench-workload-'));
  try {
    const embedded = await signInFigure(load, issuer, { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, 'embedded');
    const daemon = await spawnDaemon(untilKillAll, ['--data', join(data, 'daemon.db'), '--port', '0', '--admin-password', ADMIN_PASSWORD]);
    try {
      const tls = {
        kind: 'tls',
        url: daemon.url,
        fingerprint: daemon.fingerprint,
        resumeSessions: true,
        ...(await clientConfig()),
      } as const;
      return [embedded, await signInFigure(load, issuer, tls, 'TLS daemon')];
    } finally {
      await killAllDaemons();
    }
  } finally {
    await issuer.close();
    rmSync(data, { recursive: true, force: true });
  }
}
