import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from './load-generator.js';

/** How long and how wide the bench measures; `readSettings` reads them from the environment. */
export interface BenchSettings {
  /** Seconds per measured run, after a warm-up of `warmUpSeconds`. */
  readonly seconds: number;
  readonly warmUpSeconds: number;
  /** Connections per HTTP run (the performance table was measured with 50). */
  readonly connections: number;
  /** Alternated rounds of a row beside its floor. */
  readonly rounds: number;
  /** Alternated rounds of a floor that explains a row in its note (it explains, it does not judge). */
  readonly noteRounds: number;
  /** The longer warm-up of a row served at one request in flight (the daemon hop), where the JIT settles slowly. */
  readonly slowWarmUpSeconds: number;
  /** Live sessions of the `/health` and memory rows. */
  readonly liveSessions: number;
}

const bounded = (value: string | undefined, fallback: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Number(value ?? fallback)));

/**
 * The settings of a run: `KEYGATE_BENCH_SECONDS` (3), `KEYGATE_BENCH_ROUNDS` (5),
 * `KEYGATE_BENCH_CONNECTIONS` (50), `KEYGATE_BENCH_LIVE_SESSIONS` (20,000). `quick` only checks that the
 * groups run: its defaults are one-second runs, one round, 10 connections, 2,000 live sessions and short
 * warm-ups, and its figures are not to be compared.
 */
export function readSettings(env: NodeJS.ProcessEnv, quick = false): BenchSettings {
  const rounds = bounded(env.KEYGATE_BENCH_ROUNDS, quick ? 1 : 5, 1, 9);
  return {
    seconds: bounded(env.KEYGATE_BENCH_SECONDS, quick ? 1 : 3, 1, 30),
    warmUpSeconds: quick ? 0.5 : 1,
    connections: Number(env.KEYGATE_BENCH_CONNECTIONS ?? (quick ? 10 : 50)),
    rounds,
    noteRounds: Math.min(3, rounds),
    slowWarmUpSeconds: quick ? 1 : 10,
    liveSessions: Number(env.KEYGATE_BENCH_LIVE_SESSIONS ?? (quick ? 2_000 : 20_000)),
  };
}

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

/** A job as a row states it: what it leaves out takes the bench's defaults (`GET`, no headers, the settings' connections and seconds). */
export type Job = Omit<LoadJob, 'connections' | 'durationSeconds' | 'method' | 'headers'> & Partial<LoadJob>;

/** At or above this a side counts as saturated. */
const SATURATED = 0.9;

/**
 * The one load client: drives the load-generator process (`load-generator.ts`). The servers under
 * test run in this process, on its one thread, so its event-loop utilisation during a run says
 * whether the server was the limit.
 */
export class LoadClient {
  readonly #child: ChildProcess;
  readonly settings: BenchSettings;

  private constructor(child: ChildProcess, settings: BenchSettings) {
    this.#child = child;
    this.settings = settings;
  }

  static async start(settings: BenchSettings): Promise<LoadClient> {
    const child = fork(new URL('./load-generator.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx/esm'],
      stdio: 'inherit',
    });
    await new Promise<void>((ready, fail) => {
      child.once('message', () => ready());
      child.once('exit', (code) => fail(new Error(`load generator exited (${code}) before it was ready`)));
    });
    return new LoadClient(child, settings);
  }

  /** `job` with the settings' defaults for what it leaves out. */
  full(job: Job): LoadJob {
    return { method: 'GET', headers: {}, connections: this.settings.connections, durationSeconds: this.settings.seconds, ...job };
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

  /** `job` run for `seconds` (the settings' warm-up unless told) and not kept: compiled code, open connections. */
  warmUp(name: string, job: Job, seconds = this.settings.warmUpSeconds): Promise<Measured> {
    return this.measure(`${name} (warm-up)`, { ...this.full(job), durationSeconds: seconds });
  }

  /** A warm-up, then the measured run. */
  async run(name: string, job: Job): Promise<Measured> {
    await this.warmUp(name, job);
    return this.measure(name, this.full(job));
  }

  /**
   * A row measured against its floor in alternated rounds (floor, then row; `count`, the settings'
   * rounds unless told), answering the round of the median `value`: the shared machine drifts within
   * seconds, and a floor measured right beside its row in each round, then the middle round taken,
   * keeps one slow moment on either side from deciding the figure.
   */
  async paired(
    floor: { readonly name: string; readonly job: Job },
    row: { readonly name: string; readonly job: Job },
    value: (row: Measured, floor: Measured) => number,
    count = this.settings.rounds,
  ): Promise<Paired> {
    const rounds: { row: Measured; floor: Measured; value: number }[] = [];
    for (let round = 0; round < count; round++) {
      const measuredFloor = await this.run(floor.name, floor.job);
      const measuredRow = await this.run(row.name, row.job);
      rounds.push({ row: measuredRow, floor: measuredFloor, value: value(measuredRow, measuredFloor) });
    }
    return { ...medianRound(rounds), values: rounds.map((each) => each.value) };
  }

  stop(): void {
    this.#child.kill('SIGTERM');
  }
}

/** A row measured beside its floor: the median round, and every round's value (the row's run-to-run spread). */
export interface Paired {
  readonly row: Measured;
  readonly floor: Measured;
  readonly value: number;
  readonly values: number[];
}

/** The row's rate over its floor's: the ratio most rows report. */
export const ratioTo = (row: Measured, floor: Measured) => row.requestsPerSecond / floor.requestsPerSecond;

/** Throws when a run had a failed request: a floor or row that failed measured something else. */
export function noFailures(...runs: Measured[]): void {
  for (const run of runs) if (run.non2xx + run.errors > 0) throw new Error(`${run.name}: ${run.non2xx + run.errors} requests failed`);
}

/** The round whose `value` is the median of all rounds' (the upper middle one of an even count). */
export function medianRound<T extends { readonly value: number }>(rounds: readonly T[]): T {
  return [...rounds].sort((a, b) => a.value - b.value)[Math.floor(rounds.length / 2)]!;
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
