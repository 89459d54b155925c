import type { EngineContext } from './engine-context.js';
import { isExpired, keyStateOf } from './engine-views.js';
import { addKeyVersion } from './key-versions.js';
import { isRotationDue } from './rotation-schedule.js';

/** What one sweep did: the keys it rotated, and those whose rotation failed (tried again next sweep). */
export interface RotationSweep {
  readonly rotated: string[];
  readonly failed: string[];
}

/**
 * Rotates every key whose rotation period has elapsed since its newest version was made, by the
 * engine's clock: one new version per key and sweep, however many periods have passed (the next falls
 * due one period after it). Each key is rotated in a store unit of its own that reads the key again
 * and checks that it is still due: on a store shared by several key servers sweeping at once, the unit
 * that loses the race runs again (the store's isolation) and finds the new version, so each due
 * key is rotated exactly once. A key expired, pending deletion, deleted or gone is left alone.
 */
export async function rotateDueKeys(ctx: EngineContext): Promise<RotationSweep> {
  const ttags = await ctx.store.atomically(() => ctx.store.scheduledKeys());
  const rotated: string[] = [];
  const failed: string[] = [];
  for (const ttag of ttags) {
    try {
      const done = await ctx.store.atomically(async () => {
        const key = await ctx.store.key(ttag);
        const now = ctx.now();
        // A key pending deletion or deleted is not rotated (docs/spec.md §4.23 item 5), as an expired one.
        const state = key === undefined ? undefined : keyStateOf(key, now);
        const stopped = state === 'expired' || state === 'pending-deletion' || state === 'deleted';
        if (key === undefined || !isRotationDue(key, now, stopped || isExpired(key, now))) return false;
        await addKeyVersion(ctx, key);
        return true;
      });
      if (done) rotated.push(ttag);
    } catch {
      failed.push(ttag);
    }
  }
  return { rotated, failed };
}
