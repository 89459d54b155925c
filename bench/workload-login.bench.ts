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
import type { Job, LoadClient, Measured } from './load-client.js';
import { noFailures, ratioTo } from './load-client.js';
import { type Figure, serverCpuMicros } from './table.js';

/** Sign-ins in flight: below the throttle's places per name and address (docs/spec.md §10 item 2), so none is refused. */
const IN_FLIGHT = 4;
/** The sign-ins are one principal's each: the per-principal cap (docs/spec.md §2.4 item 2) is lifted. */
const NO_CAP = 100_000_000;

export interface LocalIssuer {
  readonly jwksUri: string;
  readonly token: string;
  close(): Promise<void>;
}

/** A local issuer's key set server (the gateway caches it: fetched once) and a token it signed, valid an hour. */
export async function localIssuer(): Promise<LocalIssuer> {
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
 * A gateway on `keyServer` trusting the local issuer, and the two sign-ins the rows repeat: the workload's
 * token and the admin's password, both on `/api/session`. Also the load of `--profile jwt`, `password`,
 * `jwt-hop` and `password-hop` (bench/profile.ts).
 */
export async function signInTarget(
  issuer: LocalIssuer,
  keyServer: GatewayConfigInput['keyServer'],
): Promise<{ jwt: Job; password: Job; close(): Promise<void> }> {
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
    return {
      jwt: {
        url: `${url}/api/session/jwt`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ token: issuer.token }),
        connections: IN_FLIGHT,
      },
      password: {
        url: `${url}/api/session`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }),
        connections: IN_FLIGHT,
      },
      close: () => gateway.close(),
    };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}

/**
 * Workload sign-ins (docs/spec.md §4.24) beside password sign-ins, in the same run on one gateway:
 * `POST /api/session/jwt` with a cached key set (one ES256 verify in the key server) against
 * `POST /api/session` (the password). Embedded, the password is one verifier recomputation in
 * process; over a daemon it is the SRP-6a exchange. The goal is at least twice the password rate.
 */
async function signInFigure(
  load: LoadClient,
  issuer: LocalIssuer,
  keyServer: GatewayConfigInput['keyServer'],
  where: string,
): Promise<Figure> {
  const target = await signInTarget(issuer, keyServer);
  try {
    // Alternated rounds (password, then JWT), the median round shown: one slow moment of the shared machine does not decide it.
    const paired = await load.paired(
      { name: `POST /api/session, ${where}`, job: target.password },
      { name: `POST /api/session/jwt, ${where}`, job: target.jwt },
      ratioTo,
    );
    noFailures(paired.row, paired.floor);
    const cpu = (run: Measured) => `${serverCpuMicros(run).toFixed(0)} us`;
    return {
      figure: `POST /api/session/jwt, cached key set, ${IN_FLIGHT} in flight, ${where}`,
      measured: `${paired.row.requestsPerSecond.toFixed(0)}/s, ${paired.value.toFixed(2)}x password`,
      floor: `POST /api/session (password): ${paired.floor.requestsPerSecond.toFixed(0)}/s`,
      value: paired.value,
      goal: { op: '>=', target: 2, unit: 'x' },
      runs: [paired.row, paired.floor],
      note: `rounds: ${paired.values.map((value) => value.toFixed(2)).join(', ')}; the median round is shown; server CPU per sign-in ${cpu(paired.row)} (JWT) against ${cpu(paired.floor)} (password)`,
    };
  } finally {
    await target.close();
  }
}

/** A `keygate keyserver` daemon on a fresh SQLite file, and the gateway settings that reach it over TLS (resumed). */
export async function benchDaemon(): Promise<{ keyServer: GatewayConfigInput['keyServer']; close(): Promise<void> }> {
  const data = mkdtempSync(join(tmpdir(), 'keygate-bench-workload-'));
  try {
    const daemon = await spawnDaemon(untilKillAll, ['--data', join(data, 'daemon.db'), '--port', '0', '--admin-password', ADMIN_PASSWORD]);
    const keyServer = {
      kind: 'tls',
      url: daemon.url,
      fingerprint: daemon.fingerprint,
      resumeSessions: true,
      ...(await clientConfig()),
    } as const;
    return { keyServer, close: async () => (await daemon.stop(), await killAllDaemons(), rmSync(data, { recursive: true, force: true })) };
  } catch (error) {
    rmSync(data, { recursive: true, force: true });
    throw error;
  }
}

export async function figures(load: LoadClient): Promise<Figure[]> {
  const issuer = await localIssuer();
  try {
    const embedded = await signInFigure(load, issuer, { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, 'embedded');
    const daemon = await benchDaemon();
    try {
      return [embedded, await signInFigure(load, issuer, daemon.keyServer, 'TLS daemon')];
    } finally {
      await daemon.close();
    }
  } finally {
    await issuer.close();
  }
}
