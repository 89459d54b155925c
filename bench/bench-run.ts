import { createECDH, generateKeyPairSync } from 'node:crypto';
import type { LoadJob } from './load-generator.js';
import type { LoadClient, Measured } from './load-client.js';

/** Seconds per measured run (after a one-second warm-up); `KEYGATE_BENCH_SECONDS` changes it. */
export const SECONDS = Math.min(30, Math.max(1, Number(process.env.KEYGATE_BENCH_SECONDS ?? 3)));
/** Connections per HTTP run (the performance table was measured with 50); `KEYGATE_BENCH_CONNECTIONS` changes it. */
export const CONNECTIONS = Number(process.env.KEYGATE_BENCH_CONNECTIONS ?? 50);
export const ADMIN_PASSWORD = 'bench-admin-password';

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

/**
 * An export request of a fresh key of the session's principal: the headers (JSON, `X-Session`), the
 * body (the key's ttag and a fresh client P-256 point) and the ttag.
 */
export async function exportRequest(url: string, sessionId: string): Promise<{ headers: Record<string, string>; body: string; ttag: string }> {
  const headers = { 'content-type': 'application/json', 'X-Session': sessionId };
  const created = await fetch(`${url}/keys`, { method: 'POST', headers });
  if (!created.ok) throw new Error(`POST /keys: ${created.status} ${await created.text()}`);
  const { ttag } = (await created.json()) as { ttag: string };
  const client = createECDH('prime256v1');
  client.generateKeys();
  return { headers, body: JSON.stringify({ ttag, clientPubKey: client.getPublicKey('base64') }), ttag };
}

/** A session bound to a fresh P-256 key, scoped to `ttag`; the key pair goes to the load generator. */
export async function boundSession(url: string, unbound: string, ttag: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' });
  const answer = await fetch(`${url}/api/session/scoped`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${unbound}` },
    body: JSON.stringify({ objects: [ttag], senderKey: publicJwk, ttlSeconds: 900 }),
  });
  if (answer.status !== 201) throw new Error(`scoped session: ${answer.status} ${await answer.text()}`);
  return { sessionId: ((await answer.json()) as { sessionId: string }).sessionId, privateJwk: privateKey.export({ format: 'jwk' }), publicJwk };
}

export type Job = Omit<LoadJob, 'connections' | 'durationSeconds' | 'method' | 'headers'> & Partial<LoadJob>;

/** `job` with the bench's defaults for what it leaves out. */
export const fullJob = (job: Job): LoadJob => ({ method: 'GET', headers: {}, connections: CONNECTIONS, durationSeconds: SECONDS, ...job });

/** `job` run for `seconds` and not kept: compiled code, open connections. */
export function warmUp(load: LoadClient, name: string, job: Job, seconds: number): Promise<Measured> {
  return load.measure(`${name} (warm-up)`, { ...fullJob(job), durationSeconds: seconds });
}

/** A warm-up (one second unless told), then the measured run. */
export async function run(load: LoadClient, name: string, job: Job, warmUpSeconds = 1): Promise<Measured> {
  await warmUp(load, name, job, warmUpSeconds);
  return load.measure(name, fullJob(job));
}

/** Rounds of a paired figure; `KEYGATE_BENCH_ROUNDS` changes it. */
export const ROUNDS = Math.min(9, Math.max(1, Number(process.env.KEYGATE_BENCH_ROUNDS ?? 5)));

/**
 * A figure measured against its floor in `ROUNDS` alternated rounds (floor, then row), answering the
 * round of the median `value`: the shared machine drifts within seconds, and a floor measured right
 * beside its row in each round, then the middle round taken, keeps one slow moment on either side from
 * deciding the figure.
 */
export async function pairedRuns(
  load: LoadClient,
  floor: { readonly name: string; readonly job: Job },
  row: { readonly name: string; readonly job: Job },
  value: (row: Measured, floor: Measured) => number,
  count = ROUNDS,
): Promise<{ row: Measured; floor: Measured; value: number; values: number[] }> {
  const rounds: { row: Measured; floor: Measured; value: number }[] = [];
  for (let round = 0; round < count; round++) {
    const measuredFloor = await run(load, floor.name, floor.job);
    const measuredRow = await run(load, row.name, row.job);
    rounds.push({ row: measuredRow, floor: measuredFloor, value: value(measuredRow, measuredFloor) });
  }
  return { ...medianRound(rounds), values: rounds.map((each) => each.value) };
}

/** The round whose `value` is the median of all rounds' (the upper middle one of an even count). */
export function medianRound<T extends { readonly value: number }>(rounds: readonly T[]): T {
  return [...rounds].sort((a, b) => a.value - b.value)[Math.floor(rounds.length / 2)]!;
}

/** Ratios as a note lists them: two decimals, comma-separated. */
export function ratios(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(', ');
}

/** How a paired figure's note lists its rounds. */
export function roundsNote(values: readonly number[]): string {
  return `rounds: ${ratios(values)}; the median round is shown`;
}
