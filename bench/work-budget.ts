import { pairedRuns, type Job } from './bench-run.js';
import { serverCpuMicros } from './figure-table.js';
import { startBareKoa } from './floors.js';
import type { LoadClient } from './load-client.js';

/** Microseconds bare Koa is made to spend on the CPU before each answer. */
const WORK_MICROS = [10, 25, 50] as const;
/** How many alternated rounds each gets (fewer than a figure's: they explain, they do not judge). */
const ROUNDS = 3;

/**
 * What any route's own work leaves of bare Koa's rate on this machine, whatever that work is: bare Koa
 * that spins W microseconds on the CPU before each answer (a busy loop: no I/O, no allocation, no
 * promise), as a ratio to bare Koa in alternated rounds, with its CPU per request beside bare Koa's.
 * Were serving a request a fixed cost, W would add W to it; the CPU per request shows what W adds in
 * place, with the load generator in the other process on the same two cores.
 */
export async function workBudgetNote(load: LoadClient, koa: { readonly name: string; readonly job: Job }, body: Record<string, unknown>): Promise<string> {
  let spinMicros = 0;
  const spinning = await startBareKoa(body, () => {
    const end = performance.now() + spinMicros / 1000;
    while (performance.now() < end);
    return true;
  });
  try {
    const parts: string[] = [];
    for (const micros of WORK_MICROS) {
      spinMicros = micros;
      const paired = await pairedRuns(
        load,
        koa,
        { name: `bare Koa spending ${micros} us before each answer`, job: { url: spinning.url } },
        (row, floor) => row.requestsPerSecond / floor.requestsPerSecond,
        ROUNDS,
      );
      if (paired.row.non2xx + paired.row.errors > 0) throw new Error(`${paired.row.name}: requests failed`);
      const added = serverCpuMicros(paired.row) - serverCpuMicros(paired.floor);
      parts.push(`${micros} us: ${paired.value.toFixed(2)} (adds ${added.toFixed(0)} us/req of CPU)`);
    }
    return (
      `bare Koa spending W us on the CPU before each answer (a busy loop, no I/O), as a ratio to bare Koa ` +
      `(median of ${ROUNDS} alternated rounds): ${parts.join(', ')}`
    );
  } finally {
    spinning.close();
  }
}
