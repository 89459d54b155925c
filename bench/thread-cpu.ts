import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of this process in ms: its main thread, and all its threads (libuv's pool, where WebCrypto works, included). */
export interface ThreadCpu {
  readonly mainMs: number;
  readonly allMs: number;
}

/**
 * Each thread's time on a CPU, from Linux's /proc/self/task/<tid>/schedstat (nanoseconds; undefined
 * where there is none). Unlike a wall-clock rate, it barely moves when other work on the machine takes
 * the cores, so a row can say how much CPU its bytes cost beside its floor's on a loaded machine.
 */
export function threadCpu(): ThreadCpu | undefined {
  try {
    let mainNs = 0;
    let allNs = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      const ns = onCpuNs(tid);
      allNs += ns;
      if (tid === String(process.pid)) mainNs = ns;
    }
    return { mainMs: mainNs / 1e6, allMs: allNs / 1e6 };
  } catch {
    return undefined;
  }
}

/** A thread that ended between the listing and the read counts as none. */
function onCpuNs(tid: string): number {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/** The CPU `work` took: `after` less `before`, or undefined where threads' CPU cannot be read. */
export function cpuSpent(before: ThreadCpu | undefined, after: ThreadCpu | undefined): ThreadCpu | undefined {
  if (before === undefined || after === undefined) return undefined;
  return { mainMs: after.mainMs - before.mainMs, allMs: after.allMs - before.allMs };
}
