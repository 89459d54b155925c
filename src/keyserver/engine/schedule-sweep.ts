import type { KeyServerEngine } from './engine.js';

/** The default time between two sweeps of the schedule (seconds): the daemon's and the embedded engine's. */
export const DEFAULT_ROTATION_SWEEP_SECONDS = 60;

/** A running sweep; `stop` ends it and waits for a sweep under way, so the store can close after it. */
export interface ScheduleSweep {
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, rotates the keys that are due (`engine.rotateDue`) and forgets idempotency records
 * past their 24 hours. One sweep at a time: the next is planned when one ends, so a slow store never
 * piles sweeps up. The timer does not keep the process alive. `report` gets one line per sweep that
 * rotated or failed something (counts only: no handle, no secret), and the message of a sweep that failed.
 */
export function startScheduleSweep(engine: KeyServerEngine, intervalMs: number, report: (line: string) => void): ScheduleSweep {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = async () => {
    try {
      const { rotated, failed } = await engine.rotateDue();
      await engine.sweepIdempotencyRecords();
      if (rotated.length > 0 || failed.length > 0)
        report(`scheduled rotation: ${rotated.length} key(s) rotated, ${failed.length} failed (tried again next sweep)`);
    } catch (error) {
      report(`scheduled rotation: sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const plan = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(plan);
    }, intervalMs);
    timer.unref();
  };
  plan();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
