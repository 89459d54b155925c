import { pino } from 'pino';

/** A pino destination whose held lines can be written at once (on exit). */
export interface FlushableDestination {
  write(line: string): boolean;
  flushNow(): void;
}

/** Destinations to flush on exit; weakly held, so a logger dropped with its gateway is not kept. */
const live = new Set<WeakRef<FlushableDestination>>();
let exitHooked = false;

/**
 * Log lines written to `dest` (a file descriptor, stdout by default, or a path) by pino's SonicBoom,
 * synchronously as before, but the lines of one event-loop turn together: the first line of a turn
 * schedules one write at the end of the turn (`setImmediate`), so a busy gateway makes one write per
 * batch of requests rather than one per request, and a quiet one still writes each line within the
 * turn it was logged in. A process that exits (`process.exit`, an uncaught exception) writes what it
 * holds first; only a kill that runs no code (SIGKILL) can lose the lines of the turn it cut.
 */
export function turnBatchedDestination(dest: number | string = 1): FlushableDestination {
  // SonicBoom does the writing (partial writes, EAGAIN, EPIPE); the lines of a turn are joined here,
  // so it measures and copies each batch once rather than its growing buffer on every line.
  const sonic = pino.destination({ dest, sync: true });
  let held: string[] = [];
  const flush = () => {
    if (held.length === 0) return;
    const lines = held.length === 1 ? held[0]! : held.join('');
    held = [];
    sonic.write(lines);
  };
  const destination: FlushableDestination = {
    write(line) {
      if (held.push(line) === 1) setImmediate(flush);
      return true;
    },
    flushNow: flush,
  };
  live.add(new WeakRef(destination));
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      for (const each of live) each.deref()?.flushNow();
    });
  }
  return destination;
}
