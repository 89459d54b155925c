import type { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import type { Reply } from './http.js';

/**
 * Awaits a reply while the gateway may be waiting on its manual clock: whenever something sleeps on
 * the clock, time is moved to its wake-up. Answers the reply and how much clock time had to pass.
 * Real time is only polled briefly (bounded), never slept through.
 */
export async function replyAfterClockWaits(clock: ManualClock, pending: Promise<Reply>): Promise<{ reply: Reply; waitedMs: number }> {
  let settled = false;
  const done = pending.finally(() => {
    settled = true;
  });
  let waitedMs = 0;
  const giveUpAt = Date.now() + 10_000;
  while (!settled && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const wake = (clock as Partial<Pick<ManualClock, 'nextWake'>>).nextWake?.();
    if (wake !== undefined && !settled) {
      const step = Math.max(0, wake - clock.now());
      clock.advance(step);
      waitedMs += step;
    }
  }
  return { reply: await done, waitedMs };
}
