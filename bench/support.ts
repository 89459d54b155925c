import autocannon from 'autocannon';

export interface BenchResult {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly errors: number;
  readonly non2xx: number;
}

export interface BenchTarget {
  readonly name: string;
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Called for every request: lets a target add per-request headers (a fresh proof). */
  readonly perRequestHeaders?: () => Record<string, string>;
  /** Overrides DURATION_SECONDS (a warm-up run, say). */
  readonly durationSeconds?: number;
}

/** Seconds per measurement; `KEYGATE_BENCH_SECONDS` shortens or lengthens a run. */
export const DURATION_SECONDS = Number(process.env.KEYGATE_BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.KEYGATE_BENCH_CONNECTIONS ?? 10);

/** One autocannon measurement of one target on loopback. */
export async function measure(target: BenchTarget): Promise<BenchResult> {
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    body: target.body,
    ...(target.perRequestHeaders
      ? {
          requests: [
            {
              setupRequest: (request: { headers?: Record<string, string> }) => ({
                ...request,
                headers: { ...(request.headers ?? {}), ...target.perRequestHeaders!() },
              }),
            } as unknown as autocannon.Request,
          ],
        }
      : {}),
    connections: CONNECTIONS,
    duration: target.durationSeconds ?? DURATION_SECONDS,
  });
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    meanMs: result.latency.mean,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Prints results as a fixed-width table, with each row's throughput relative to `baseline`. */
export function printTable(title: string, rows: readonly BenchResult[], baseline?: BenchResult): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`${'target'.padEnd(44)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${'vs base'.padStart(9)}${'non-2xx'.padStart(9)}\n`);
  for (const row of rows) {
    const ratio = baseline ? (row.requestsPerSecond / baseline.requestsPerSecond).toFixed(2) : '';
    process.stdout.write(
      `${row.name.padEnd(44)}${row.requestsPerSecond.toFixed(0).padStart(10)}${row.p99Ms.toFixed(1).padStart(9)}${ratio.padStart(9)}${String(row.non2xx + row.errors).padStart(9)}\n`,
    );
  }
}
