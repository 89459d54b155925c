import type { EngineContext } from './engine-context.js';
import { isPendingDeletion } from './engine-views.js';

/** How long a gateway's claim to store a destruction's audit record holds (docs/spec.md §4.23 item 5). */
export const DESTRUCTION_CLAIM_MS = 5 * 60_000;
/** The most destructions one claim hands out. */
export const DESTRUCTION_CLAIM_LIMIT = 100;

/** What one deletion sweep did: the keys it destroyed, and those it could not (tried again next sweep). */
export interface DeletionSweep {
  readonly destroyed: string[];
  readonly failed: string[];
}

/** A destruction whose audit record a gateway claimed: the key's ttag and when it was destroyed (ms). */
export interface ClaimedDestruction {
  readonly ttag: string;
  readonly deletedAt: number;
}

/**
 * Destroys every key whose scheduled deletion is due by the engine's clock (docs/spec.md §4.23 item 5):
 * each in a store unit of its own that reads the key again and checks that it is still pending and
 * due, then erases its material, its versions and its aliases and keeps its tombstone. On a store
 * shared by several key servers sweeping at once, the unit that loses the race runs again (the store's
 * isolation) and finds the tombstone, so each key is destroyed exactly once. A cancelled key is left alone.
 */
export async function destroyDueKeys(ctx: EngineContext): Promise<DeletionSweep> {
  const ttags = await ctx.store.atomically(() => ctx.store.keysDueForDeletion(ctx.now()));
  const destroyed: string[] = [];
  const failed: string[] = [];
  for (const ttag of ttags) {
    try {
      const done = await ctx.store.atomically(async () => {
        const key = await ctx.store.key(ttag);
        const now = ctx.now();
        if (key === undefined || !isPendingDeletion(key) || key.deletionAt! > now) return false;
        await ctx.store.destroyKey(ttag, now);
        return true;
      });
      if (done) destroyed.push(ttag);
    } catch {
      failed.push(ttag);
    }
  }
  return { destroyed, failed };
}

/**
 * Hands a gateway the destructions whose audit record is not stored and not claimed by another
 * gateway (or whose claim lapsed), each claimed for DESTRUCTION_CLAIM_MS, in one unit of the store:
 * two gateways asking at once get each destruction once between them.
 */
export async function claimDestructions(ctx: EngineContext): Promise<ClaimedDestruction[]> {
  const now = ctx.now();
  const claimed = await ctx.store.unrecordedDestructions(now, DESTRUCTION_CLAIM_LIMIT);
  for (const { ttag } of claimed) await ctx.store.setDeletionRecord(ttag, now + DESTRUCTION_CLAIM_MS);
  return claimed;
}

/** The destruction's audit record is stored: no gateway is handed it again. An unknown ttag changes nothing. */
export async function confirmDestruction(ctx: EngineContext, ttag: string): Promise<void> {
  await ctx.store.setDeletionRecord(ttag, null);
}
