import { createECDH, generateKeyPairSync } from 'node:crypto';
import { SystemClock } from '../src/adapters/clock/system-clock.js';
import { PinoLogger } from '../src/adapters/logger/pino-logger.js';
import { RateLimitedLogger } from '../src/adapters/logger/rate-limited-logger.js';
import { turnBatchedDestination } from '../src/adapters/logger/turn-batched-destination.js';
import type { Logger } from '../src/ports/logger.port.js';
import type { Job } from './load-client.js';
import type { ProofSpec } from './proofs.js';

/** The password of the bench's admin, on every gateway and daemon it starts. */
export const ADMIN_PASSWORD = 'bench-admin-password';

/**
 * The logger a deployment runs (pino behind the rate limiter, as `openAdapters` builds it), writing
 * its lines to /dev/null instead of stdout: the bench pays for every access-log line as served, and
 * keeps none of them in memory (an in-memory test logger would hold every line of every run). The
 * lines go out as a deployment's do (`turnBatchedDestination`): synchronous writes, one per
 * event-loop turn.
 */
export function deployedLogger(): Logger {
  return new RateLimitedLogger(
    new PinoLogger({ destination: turnBatchedDestination('/dev/null') as unknown as NodeJS.WritableStream }),
    new SystemClock(),
  );
}

/**
 * The gateway settings every HTTP row shares with a deployment: metrics on (prom-client, counted per
 * request; its listener on a free port, not scraped during runs).
 */
export const DEPLOYED = { metricsPort: 0 } as const;

/** Signs in as the bench's admin on the gateway at `url`: the session id. */
export async function signIn(url: string): Promise<string> {
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }),
  });
  if (answer.status !== 200) throw new Error(`login: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { sessionId: string }).sessionId;
}

/** The admin login the login rows repeat. */
export const loginJob = (url: string): Job => ({
  url: `${url}/login`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD }),
});

/**
 * An export request of a fresh key of the session's principal: the headers (JSON, `X-Session`), the
 * body (the key's ttag and a fresh client P-256 point) and the ttag.
 */
export async function exportRequest(
  url: string,
  sessionId: string,
): Promise<{ headers: Record<string, string>; body: string; ttag: string }> {
  const headers = { 'content-type': 'application/json', 'X-Session': sessionId };
  const created = await fetch(`${url}/keys`, { method: 'POST', headers });
  if (!created.ok) throw new Error(`POST /keys: ${created.status} ${await created.text()}`);
  const { ttag } = (await created.json()) as { ttag: string };
  const client = createECDH('prime256v1');
  client.generateKeys();
  return { headers, body: JSON.stringify({ ttag, clientPubKey: client.getPublicKey('base64') }), ttag };
}

/** The export request of one admin key on the gateway at `url`: signed in, a key made, a client point (one in flight). */
export async function exportJob(url: string): Promise<Job> {
  const { headers, body } = await exportRequest(url, await signIn(url));
  return { url: `${url}/keys/export`, method: 'POST', headers, body, connections: 1 };
}

/**
 * A session bound to a fresh P-256 key, scoped to `ttag`, and the proofs of a `GET htu` on it for the
 * load generator to mint.
 */
export async function boundSession(
  url: string,
  unbound: string,
  ttag: string,
  htu: string,
): Promise<{ sessionId: string; proofs: ProofSpec }> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' });
  const answer = await fetch(`${url}/api/session/scoped`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${unbound}` },
    body: JSON.stringify({ objects: [ttag], senderKey: publicJwk, ttlSeconds: 900 }),
  });
  if (answer.status !== 201) throw new Error(`scoped session: ${answer.status} ${await answer.text()}`);
  const sessionId = ((await answer.json()) as { sessionId: string }).sessionId;
  return { sessionId, proofs: { privateJwk: privateKey.export({ format: 'jwk' }), publicJwk, htu, htm: 'GET', credential: sessionId } };
}
