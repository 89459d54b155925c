import type { LoadJob } from './load-generator.js';
import type { LoadClient, Measured } from './load-client.js';

/** Seconds per measured run (after a one-second warm-up); `KEYGATE_BENCH_SECONDS` changes it. */
export const SECONDS = Math.min(30, Math.max(1, Number(process.env.KEYGATE_BENCH_SECONDS ?? 3)));
/** Connections per HTTP run (issue 14 measured with 50); `KEYGATE_BENCH_CONNECTIONS` changes it. */
export const CONNECTIONS = Number(process.env.KEYGATE_BENCH_CONNECTIONS ?? 50);
export const ADMIN_PASSWORD = 'bench-admin-password';

export type Job = Omit<LoadJob, 'connections' | 'durationSeconds' | 'method' | 'headers'> & Partial<LoadJob>;

/** A one-second warm-up (compiled code, open connections), then the measured run. */
export async function run(load: LoadClient, name: string, job: Job): Promise<Measured> {
  const full: LoadJob = { method: 'GET', headers: {}, connections: CONNECTIONS, durationSeconds: SECONDS, ...job };
  await load.measure(`${name} (warm-up)`, { ...full, durationSeconds: 1 });
  return load.measure(name, full);
}
