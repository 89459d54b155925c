import { performance } from 'node:perf_hooks';
import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, ROUNDS, signIn } from './bench-run.js';
import { DEPLOYED, deployedLogger } from './deployed-logging.js';

/** docs/spec.md §4.22 item 8: 10 batches of 100 take at most this share of 1,000 single requests. */
const GOAL = 1 / 5;
const ITEMS = 1000;
const BATCH = 100;

/**
 * The batch row: 1,000 encrypts of 64 bytes through /api, as 1,000 single requests and as 10 batches
 * of 100, on one gateway (embedded key server, deployed logging), one request at a time so each side
 * pays its own round trips; rounds alternate and the median round's ratio is shown.
 */
export async function benchBatch(): Promise<void> {
  const gateway = await createGateway({ keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD }, ...DEPLOYED }, { logger: deployedLogger() });
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
    await singles();
    await batches();
    const rounds: { single: number; batched: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) rounds.push({ single: await timed(singles), batched: await timed(batches) });
    const ratios = rounds.map((r) => r.batched / r.single).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const shown = rounds.find((r) => r.batched / r.single === median)!;
    process.stdout.write(
      `\nbatch: 1,000 encrypts of 64 bytes: ${shown.single.toFixed(0)} ms as single requests, ${shown.batched.toFixed(0)} ms as 10 batches of 100: ` +
        `ratio ${median.toFixed(3)} (goal <= ${GOAL.toFixed(2)}: ${median <= GOAL ? 'met' : 'MISSED'}); rounds ${ratios.map((r) => r.toFixed(3)).join(' ')}\n`,
    );
  } finally {
    await gateway.close();
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
