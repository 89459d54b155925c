import { randomBytes } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Secret } from '../src/domain/secret/secret.js';
import type { SessionRecord } from '../src/domain/session/session.js';
import { sessionKey, sessionRef } from '../src/domain/session/session-id.js';
import type { SessionStore } from '../src/ports/session-store.port.js';
import type { Figure } from './figure-table.js';
import type { LoadClient } from './load-client.js';
import { run } from './bench-run.js';

/** Live sessions for the `/health` and memory figures (issue 14: 20,000). */
const LIVE_SESSIONS = Number(process.env.KEYGATE_BENCH_LIVE_SESSIONS ?? 20_000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** RSS, and what the heap holds (V8 heap plus memory outside it), after full collections. */
function settledMemory(): { rss: number; held: number } {
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, held: usage.heapUsed + usage.external };
}

/**
 * Fills the store with `count` records shaped as a password login mints them (fresh id, reference,
 * identity and token of the same sizes as `model`), straight into the store: logging in 20,000 times
 * would measure the login, which has a row of its own.
 */
async function fill(store: SessionStore, model: SessionRecord, count: number): Promise<void> {
  const tokenLength = model.token.reveal().length;
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const id = randomBytes(32).toString('base64url');
    const token = new Secret(randomBytes(tokenLength).toString('base64url').slice(0, tokenLength));
    const record: SessionRecord = { ...model, identity: { ...model.identity }, token, ref: sessionRef(id), createdAt: now, expiresAt: now + 3_600_000 };
    await store.put(sessionKey(id), record);
  }
}

/** `/health` with many live sessions beside `/health` with (almost) none, and the memory each one takes. */
export async function liveSessionFigures(load: LoadClient, url: string, store: SessionStore, sessionId: string): Promise<Figure[]> {
  const before = await store.count();
  const health = await run(load, `GET /health, ${before} live sessions`, { url: `${url}/health` });
  const model = await store.get(sessionKey(sessionId));
  if (model === undefined) throw new Error('the bench session is gone');
  const baseline = settledMemory();
  await fill(store, model, LIVE_SESSIONS);
  const after = settledMemory();
  // RSS alone under-reports when the records land in heap pages freed by earlier runs: the larger of
  // the two growths is taken.
  const rssPer = (after.rss - baseline.rss) / LIVE_SESSIONS;
  const heldPer = (after.held - baseline.held) / LIVE_SESSIONS;
  const perSession = Math.max(rssPer, heldPer);
  const crowded = await run(load, `GET /health, ${LIVE_SESSIONS} live sessions`, { url: `${url}/health` });
  return [
    {
      figure: `/health with ${LIVE_SESSIONS} live sessions`,
      measured: `${crowded.requestsPerSecond.toFixed(0)} req/s`,
      floor: `/health with ${before}: ${health.requestsPerSecond.toFixed(0)} req/s`,
      value: crowded.requestsPerSecond / health.requestsPerSecond,
      goal: { op: '>=', target: 0.9 },
      runs: [crowded, health],
    },
    {
      figure: 'RSS per live session',
      measured: `${perSession.toFixed(0)} B`,
      floor: `RSS +${rssPer.toFixed(0)} B, heap+external +${heldPer.toFixed(0)} B`,
      value: perSession,
      goal: { op: '<=', target: 2000, unit: ' B' },
      runs: [],
      note: `${LIVE_SESSIONS} records put into the memory store as a login mints them, after full GCs`,
    },
  ];
}
