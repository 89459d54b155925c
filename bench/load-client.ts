import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from './load-generator.js';

/** One measurement: the generator's figures plus how busy this process (the server) was meanwhile. */
export interface Measured extends LoadResult {
  readonly name: string;
  /** Event-loop utilisation of the server's thread during the run (1 = never idle). */
  readonly serverBusy: number;
  /**
   * CPU time this process (the server) used during the run, in microseconds: unlike busy time, it does
   * not count the moments the thread was ready but the other process had the core.
   */
  readonly serverCpuUs: number;
}

/** At or above this a side counts as saturated. */
const SATURATED = 0.9;

/**
 * Drives the load-generator process. The servers under test run in this process, on its one thread,
 * so its event-loop utilisation during a run says whether the server was the limit.
 */
export class LoadClient {
  readonly #child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  static async start(): Promise<LoadClient> {
    const child = fork(new URL('./load-generator.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx/esm'], stdio: 'inherit' });
    await new Promise<void>((ready, fail) => {
      child.once('message', () => ready());
      child.once('exit', (code) => fail(new Error(`load generator exited (${code}) before it was ready`)));
    });
    return new LoadClient(child);
  }

  /**
   * Runs `job` and measures this process over the run itself: the server's figures start when the
   * generator says its load starts (after it minted any proofs), so the time it spends getting ready
   * never dilutes the server's busy share.
   */
  async measure(name: string, job: LoadJob): Promise<Measured> {
    let elu = performance.eventLoopUtilization();
    let cpu = process.cpuUsage();
    const answer = await new Promise<{ ok: boolean; result?: LoadResult; error?: string }>((resolve) => {
      const onMessage = (message: { started?: boolean; ok?: boolean }) => {
        if (message.started === true) {
          elu = performance.eventLoopUtilization();
          cpu = process.cpuUsage();
          return;
        }
        this.#child.removeListener('message', onMessage);
        resolve(message as { ok: boolean; result?: LoadResult; error?: string });
      };
      this.#child.on('message', onMessage);
      this.#child.send(job);
    });
    const serverBusy = performance.eventLoopUtilization(elu).utilization;
    const used = process.cpuUsage(cpu);
    if (!answer.ok) throw new Error(`load generator failed on ${name}: ${answer.error}`);
    return { name, ...answer.result!, serverBusy, serverCpuUs: used.user + used.system };
  }

  stop(): void {
    this.#child.kill('SIGTERM');
  }
}

/**
 * Who set the pace of a run: the server (its thread saturated), the load generator (its process used
 * a whole core while the server still had idle time), or neither (both had headroom: the two cores
 * are shared with something else, or the work waits on another process).
 */
export function limitOf(row: Measured): string {
  if (row.serverBusy >= SATURATED) return 'server';
  if (row.generatorCpu >= SATURATED) return 'LOAD GENERATOR';
  return `neither (server ${(row.serverBusy * 100).toFixed(0)}%, generator ${(row.generatorCpu * 100).toFixed(0)}%)`;
}
