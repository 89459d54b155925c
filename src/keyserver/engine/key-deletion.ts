import type { KeyView } from '../../wire/key-view.js';
import { BadRequestError } from '../model/key-server-errors.js';
import type { EngineContext } from './engine-context.js';

import type { KeyRow } from './engine-model.js';
import { isPendingDeletion, keyView, requireLiveKey, requireNotDeleted } from './engine-views.js';

const DAY_MS = 86_400_000;

/**
 * Scheduled deletion (docs/spec.md §4.23 item 5): the owner schedules a key's destruction some days
 * ahead and may cancel it until then; the sweep (deletion-sweep.ts) destroys it once due.
 */
export class KeyDeletionOperations {
  readonly #ctx: EngineContext;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /**
   * Puts the key in pending-deletion with `deletionAt` now plus `pendingDays` days (the maximum by
   * default; outside the bounds BAD_REQUEST naming them). An active, disabled or expired key may be
   * scheduled; one pending already is KEY_PENDING_DELETION, a tombstone KEY_DELETED.
   */
  async schedule(token: string, ttag: string, pendingDays?: number): Promise<KeyView> {
    const ctx = this.#ctx;
    const key = await this.#ownedKey(token, ttag, 'schedule deletion');
    requireLiveKey(key);
    const { min, max } = ctx.deletionDays;
    const days = pendingDays ?? max;
    if (!Number.isSafeInteger(days) || days < min || days > max) {
      throw new BadRequestError(`pendingDays: an integer from ${min} to ${max} (the key server's bounds)`);
    }
    const scheduled: KeyRow = { ...key, deletionAt: ctx.now() + days * DAY_MS };
    await ctx.store.putKey(scheduled);
    return await keyView(scheduled, ctx.store, ctx.now());
  }

  /**
   * Ends the wait: the key comes back disabled (or expired, when it has expired), never active. A key
   * not pending deletion is answered as it is; a tombstone is KEY_DELETED.
   */
  async cancel(token: string, ttag: string): Promise<KeyView> {
    const ctx = this.#ctx;
    const key = await this.#ownedKey(token, ttag, 'cancel deletion');
    requireNotDeleted(key);
    if (!isPendingDeletion(key)) return await keyView(key, ctx.store, ctx.now());
    const { deletionAt: _cancelled, ...rest } = key;
    const cancelled: KeyRow = { ...rest, disabled: true };
    await ctx.store.putKey(cancelled);
    return await keyView(cancelled, ctx.store, ctx.now());
  }

  /** The owner, holding `keys.delete`, with a token not scoped (`manage`): as expire and disable. */
  async #ownedKey(token: string, ttag: string, operation: string): Promise<KeyRow> {
    const ctx = this.#ctx;
    const caller = await ctx.auth.authenticate(token);
    await ctx.auth.requireOperation(caller, 'keys.delete');
    const key = await ctx.auth.ownedKey(caller.principal, ttag, operation);
    ctx.auth.requireScope(caller, key.ttag, 'manage');
    return key;
  }
}
