import { pino } from 'pino';

/** A pino destination that can be flushed at once (on exit, on close). */
export interface FlushableDestination {
  write(line: string): boolean;
  flushNow(): void;
}

/** Bytes SonicBoom may hold before it writes on its own (below its 16 KiB write size). */
const HOLD_BYTES = 8 * 1024;
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
  const sonic = pino.destination({ dest, sync: true, minLength: HOLD_BYTES });
  let scheduled = false;
  let held = false;
  const flush = () => {
    scheduled = false;
    if (!held) return;
    held = false;
    sonic.flush();
  };
  const destination: FlushableDestination = {
    write(line) {
      sonic.write(line);
      held = true;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
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
