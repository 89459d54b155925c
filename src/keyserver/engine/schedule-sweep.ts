import type { KeyServerEngine } from './engine.js';

/** The default time between two sweeps of the schedule (seconds): the daemon's and the embedded engine's. */
export const DEFAULT_ROTATION_SWEEP_SECONDS = 60;

/** A running sweep; `stop` ends it and waits for a sweep under way, so the store can close after it. */
export interface ScheduleSweep {
  stop(): Promise<void>;
}

/** Waits `ms` on some clock (never rejects), without holding the process open. */
export type SweepWait = (ms: number) => Promise<void>;

/** The machine's time, as the daemon sweeps by it: an unreferenced timer. */
export const machineWait: SweepWait = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Every `intervalMs`, rotates the keys that are due (`engine.rotateDue`) and forgets idempotency records
 * past their 24 hours. One sweep at a time: the next is planned when one ends, so a slow store never
 * piles sweeps up. The timer does not keep the process alive. `report` gets one line per sweep that
 * rotated or failed something (counts only: no handle, no secret), and the message of a sweep that failed.
 */
export function startScheduleSweep(engine: KeyServerEngine, intervalMs: number, report: (line: string) => void): ScheduleSweep {
  return startRepeating(intervalMs, machineWait, async () => {
    try {
      const { rotated, failed } = await engine.rotateDue();
      await engine.sweepIdempotencyRecords();
      if (rotated.length > 0 || failed.length > 0)
        report(`scheduled rotation: ${rotated.length} key(s) rotated, ${failed.length} failed (tried again next sweep)`);
    } catch (error) {
      report(`scheduled rotation: sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/**
 * Every `intervalMs` of `wait`'s clock (the daemon's machine time; the embedded engine's, the gateway's
 * clock, so a test moves it by hand), destroys the keys whose scheduled deletion is due
 * (`engine.destroyDue`, docs/spec.md §4.23 item 5). `report` as the rotation sweep's.
 */
export function startDeletionSweep(
  engine: KeyServerEngine,
  intervalMs: number,
  wait: SweepWait,
  report: (line: string) => void,
): ScheduleSweep {
  return startRepeating(intervalMs, wait, async () => {
    try {
      const { destroyed, failed } = await engine.destroyDue();
      if (destroyed.length > 0 || failed.length > 0)
        report(`scheduled deletion: ${destroyed.length} key(s) destroyed, ${failed.length} failed (tried again next sweep)`);
    } catch (error) {
      report(`scheduled deletion: sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** Runs `sweep` every `intervalMs` of `wait`, one at a time; the sweeps' own failures are theirs to report. */
function startRepeating(intervalMs: number, wait: SweepWait, sweep: () => Promise<void>): ScheduleSweep {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const plan = () => {
    if (stopped) return;
    void wait(intervalMs).then(() => {
      if (stopped) return;
      running = sweep().finally(plan);
    });
  };
  plan();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
