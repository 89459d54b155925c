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

/** How a paired figure's note lists its rounds. */
export function roundsNote(values: readonly number[]): string {
  return `rounds: ${values.map((value) => value.toFixed(2)).join(', ')}; the median round is shown`;
}
