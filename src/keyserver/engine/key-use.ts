import { KEY_USE_GRAIN_MS, type KeyUse } from '../../wire/key-view.js';
import type { EngineContext } from './engine-context.js';
import type { KeyRow } from './engine-model.js';

/**
 * Notes a successful use of the key's material (docs/spec.md §4.23 item 6), in the unit of the use:
 * written only when the stored last use is absent or at least KEY_USE_GRAIN_MS older, so a key takes at
 * most one store write a minute whatever its traffic. A use refused before this point is no use.
 */
export async function noteKeyUse(ctx: EngineContext, key: KeyRow, use: KeyUse): Promise<void> {
  const now = ctx.now();
  if (key.lastUsedAt !== undefined && now - key.lastUsedAt < KEY_USE_GRAIN_MS) return;
  await ctx.store.recordKeyUse(key.ttag, now, use);
}

/** `{ resolved }` when the request named the key by alias (`reference` is not its ttag), else nothing. */
export function resolvedOf(reference: string, key: KeyRow): { resolved?: string } {
  return reference === key.ttag ? {} : { resolved: key.ttag };
}
