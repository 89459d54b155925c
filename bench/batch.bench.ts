import { performance } from 'node:perf_hooks';
import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, signIn } from './deployed.js';
import { type LoadClient, medianRound } from './load-client.js';
import { type Figure, roundsNote } from './table.js';

/** docs/spec.md §4.22: 10 batches of 100 take at most this share of the time of 1,000 single requests. */
const GOAL = 1 / 5;
const ITEMS = 1000;
const BATCH = 100;

/**
 * The batch row: 1,000 encrypts of 64 bytes through /api, as 1,000 single requests (the floor) and as
 * 10 batches of 100, on one gateway (embedded key server, deployed logging), one request at a time so
 * each side pays its own round trips; rounds alternate and the median round's ratio is shown.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED },
    { logger: deployedLogger() },
  );
  try {
    const { url } = await gateway.listen(0, '127.0.0.1');
    const headers = { 'content-type': 'application/json', Authorization: `Bearer ${await signIn(url)}` };
    const post = async (path: string, body: unknown) => {
      const answer = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      return answer.json() as Promise<{ ttag?: string }>;
    };
    const { ttag } = await post('/api/keys', {});
    const item = { ttag, plaintext: Buffer.alloc(64, 1).toString('base64') };
    const singles = async () => {
      for (let i = 0; i < ITEMS; i += 1) await post('/api/crypto/encrypt', item);
    };
    const batches = async () => {
      for (let i = 0; i < ITEMS / BATCH; i += 1) await post('/api/crypto/encrypt', { items: Array.from({ length: BATCH }, () => item) });
    };
    await singles(); // warm-up of both sides
    await batches();
    const rounds: { single: number; batched: number; value: number }[] = [];
    for (let round = 0; round < load.settings.rounds; round += 1) {
      const single = await timed(singles);
      const batched = await timed(batches);
      rounds.push({ single, batched, value: batched / single });
    }
    const shown = medianRound(rounds);
    return [
      {
        figure: '1,000 encrypts of 64 bytes as 10 batches of 100',
        measured: `${shown.batched.toFixed(0)} ms`,
        floor: `the same as 1,000 single requests: ${shown.single.toFixed(0)} ms`,
        value: shown.value,
        goal: { op: '<=', target: GOAL, unit: 'x' },
        runs: [],
        note: roundsNote(rounds.map((round) => round.value)),
      },
    ];
  } finally {
    await gateway.close();
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
