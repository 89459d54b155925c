import { token } from './token.js';

/** What `remember` found: a new entry was written, the entry already existed, or there was no room. */
export type ReplayVerdict = 'fresh' | 'replayed' | 'full';

/**
 * The proof replay cache (seed 001 §5 `jti`, §8 "replay cache"; RFC 9449 §11.1): the `jti`s of
 * accepted proofs, keyed by (`jkt`, `jti`), each kept until its proof could no longer be accepted.
 *
 * Contract (`test/ports/replay-cache.contract.ts`):
 * - `remember` is one atomic set-if-absent with expiry: of any number of concurrent calls with the
 *   same (`jkt`, `jti`), across every gateway sharing the cache, exactly one answers `'fresh'`.
 *   A Redis adapter does it in one round trip (`SET key 1 NX PXAT expiresAt`, with the bound checked
 *   in the same script).
 * - An entry is live while the cache's clock reads less than its `expiresAt` (milliseconds since
 *   the epoch), and gone from then on; its (`jkt`, `jti`) may then be remembered afresh.
 * - The cache is bounded. A live entry is never evicted to make room: a new entry that does not fit
 *   answers `'full'` and writes nothing. A replay answers `'replayed'` even when the cache is full.
 * - A cache that cannot be reached throws, and the caller refuses the request (fails closed).
 */
export interface ReplayCache {
  /** Records (`jkt`, `jti`) until `expiresAt` unless a live entry exists (`'replayed'`) or there is no room (`'full'`). */
  remember(jkt: string, jti: string, expiresAt: number): Promise<ReplayVerdict>;
  /** Number of live entries. */
  size(): Promise<number>;
  /** Releases connections; the cache is unusable afterwards. */
  close(): Promise<void>;
}

export const REPLAY_CACHE = token<ReplayCache>('ReplayCache');
