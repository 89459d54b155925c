import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Secret } from '../src/domain/secret/secret.js';
import type { SessionRecord } from '../src/domain/session/session.js';
import { sessionKey, sessionRef } from '../src/domain/session/session-id.js';
import type { SessionStore } from '../src/ports/session-store.port.js';
import { type LoadClient, type Measured, medianRound } from './load-client.js';
import { type Figure, roundsNote } from './table.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** RSS, and what the heap holds (V8 heap plus memory outside it), after full collections. */
export function settledMemory(): { rss: number; held: number } {
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, held: usage.heapUsed + usage.external };
}

/**
 * Fills the store with `count` records shaped as a password login mints them (fresh id, reference,
 * identity and token of the same sizes as `model`), straight into the store: logging in 20,000 times
 * would measure the login, which has a row of its own.
 */
async function fill(store: SessionStore, model: SessionRecord, count: number): Promise<string[]> {
  const tokenLength = model.token.reveal().length;
  const now = Date.now();
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomBytes(32).toString('base64url');
    const token = new Secret(randomBytes(tokenLength).toString('base64url').slice(0, tokenLength));
    const record: SessionRecord = {
      ...model,
      identity: { ...model.identity },
      token,
      ref: sessionRef(id),
      createdAt: now,
      expiresAt: now + 3_600_000,
    };
    keys.push(sessionKey(id));
    await store.put(keys.at(-1)!, record);
  }
  return keys;
}

/** `/health` with many live sessions beside `/health` with (almost) none, and the memory each one takes. */
export async function liveSessionFigures(load: LoadClient, url: string, store: SessionStore, sessionId: string): Promise<Figure[]> {
  const { liveSessions, rounds: count } = load.settings;
  const before = await store.count();
  const model = await store.get(sessionKey(sessionId));
  if (model === undefined) throw new Error('the bench session is gone');
  // Alternated rounds (the settings' `rounds`): /health with the store as it is, then with the sessions put in,
  // which are taken out again before the next round; the median round is shown.
  const rounds: { health: Measured; crowded: Measured; value: number }[] = [];
  let memory: { rssPer: number; heldPer: number } | undefined;
  for (let round = 0; round < count; round++) {
    const health = await load.run(`GET /health, ${before} live sessions`, { url: `${url}/health` });
    const baseline = settledMemory();
    const keys = await fill(store, model, liveSessions);
    const after = settledMemory();
    // RSS alone under-reports when the records land in heap pages freed by earlier runs: the larger of
    // the two growths is taken (first round: the heap has not held them before).
    memory ??= { rssPer: (after.rss - baseline.rss) / liveSessions, heldPer: (after.held - baseline.held) / liveSessions };
    const crowded = await load.run(`GET /health, ${liveSessions} live sessions`, { url: `${url}/health` });
    rounds.push({ health, crowded, value: crowded.requestsPerSecond / health.requestsPerSecond });
    for (const key of keys) await store.delete(key);
  }
  const { rssPer, heldPer } = memory!;
  const perSession = Math.max(rssPer, heldPer);
  const { health, crowded, value } = medianRound(rounds);
  return [
    {
      figure: `/health with ${liveSessions} live sessions`,
      measured: `${crowded.requestsPerSecond.toFixed(0)} req/s`,
      floor: `/health with ${before}: ${health.requestsPerSecond.toFixed(0)} req/s`,
      value,
      goal: { op: '>=', target: 0.9 },
      runs: [crowded, health],
      note: roundsNote(rounds.map((each) => each.value)),
    },
    {
      figure: 'RSS per live session',
      measured: `${perSession.toFixed(0)} B`,
      floor: `RSS ${signed(rssPer)} B, heap+external ${signed(heldPer)} B`,
      value: perSession,
      goal: { op: '<=', target: 2000, unit: ' B' },
      runs: [],
      note: `${liveSessions} records put into the memory store as a login mints them, after full GCs`,
    },
  ];
}

/** A change in bytes with its sign: `+563`, `-290`. */
export function signed(bytes: number): string {
  const rounded = bytes.toFixed(0);
  return rounded.startsWith('-') ? rounded : `+${rounded}`;
}
