import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { mintProofs, type ProofSpec } from './proofs.js';

/**
 * The load generator, in a process of its own so that it never shares a thread with the server it
 * measures. The parent (`load-client.ts`) sends one job at a time over IPC; the answer carries
 * autocannon's figures and this process's own CPU use during the run, so a row can say when the
 * generator, not the server, was the limit.
 */
export interface LoadJob {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Send exactly this many requests, then stop (the duration is then ignored). */
  readonly amount?: number;
  /** A fresh DPoP proof per request, minted before the run (signing then does not compete with the server). */
  readonly proofs?: ProofSpec;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly errors: number;
  readonly non2xx: number;
  /** CPU time of this process per wall-clock second of the run (1 = one core busy). */
  readonly generatorCpu: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  // 16,000 a second: bare Koa that checks each proof in place serves some 7,000-10,000 a second here, and
  // a request past the end of the pool goes out with an empty proof and fails the run.
  const pool = job.proofs ? mintProofs(job.proofs, Math.min(160_000, 16_000 * job.durationSeconds)) : [];
  // The parent measures the server from here on: minting (seconds for a long run) is not part of the run.
  process.send!({ started: true });
  const perRequest = job.proofs
    ? {
        requests: [
          {
            setupRequest: (request: { headers?: Record<string, string> }) => ({
              ...request,
              headers: { ...(request.headers ?? {}), DPoP: pool.pop() ?? '' },
            }),
          } as unknown as autocannon.Request,
        ],
      }
    : {};
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: job.url,
    method: job.method,
    headers: job.headers,
    ...(job.body !== undefined ? { body: job.body } : {}),
    ...perRequest,
    connections: job.connections,
    duration: job.durationSeconds,
    ...(job.amount !== undefined ? { amount: job.amount } : {}),
  });
  const wallUs = (performance.now() - started) * 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    generatorCpu: (cpu.user + cpu.system) / wallUs,
  };
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ ok: true, result }),
    (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
  );
});
process.send!({ ready: true });
