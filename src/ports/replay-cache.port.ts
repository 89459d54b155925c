import { token } from './token.js';

/**
 * What `remember` found: a new entry was written, the entry already existed, there was no room in the
 * cache, or there was room but not in the key's share, or not in the principal's share.
 */
export type ReplayVerdict = 'fresh' | 'replayed' | 'full' | 'key-full' | 'principal-full';

/**
 * The proof replay cache (docs/spec.md §5.4; RFC 9449 §11.1): the `jti`s of
 * accepted proofs, keyed by (`jkt`, `jti`), each kept until its proof could no longer be accepted.
 *
 * Contract (`test/ports/replay-cache.contract.ts`):
 * - `remember` is one atomic set-if-absent with expiry: of any number of concurrent calls with the
 *   same (`jkt`, `jti`), across every gateway sharing the cache, exactly one answers `'fresh'`.
 *   The Redis adapter does it in one round trip: one script checks, bounds and writes a sorted set of
 *   the entries scored by `expiresAt`.
 * - An entry is live while the cache's clock reads less than its `expiresAt` (milliseconds since
 *   the epoch), and gone from then on; its (`jkt`, `jti`) may then be remembered afresh.
 * - The cache is bounded. A live entry is never evicted to make room: a new entry that does not fit
 *   answers `'full'` and writes nothing. A replay answers `'replayed'` even when the cache is full.
 * - Each `jkt` has a share (docs/spec.md §12 item 6): a new entry of a key that already holds its share of live
 *   entries answers `'key-full'` and writes nothing, so one key cannot fill the cache for the others.
 *   The whole cache full answers `'full'` first.
 * - Each principal has a share too, over all its keys: a new entry of a principal that already holds
 *   its share of live entries answers `'principal-full'` and writes nothing, so one principal holding
 *   many keys (scoped sessions, each with a fresh key) cannot fill the cache for the other principals.
 *   A key over its own share answers `'key-full'` before the principal's share is looked at.
 * - A cache that cannot be reached throws, and the caller refuses the request (fails closed).
 */
export interface ReplayCache {
  /**
   * Records (`jkt`, `jti`) until `expiresAt`, counted against the shares of `jkt` and of `principal`
   * (the principal id of the session the proof was presented for), unless a live entry exists
   * (`'replayed'`) or there is no room (`'full'`, `'key-full'`, `'principal-full'`).
   */
  remember(jkt: string, jti: string, expiresAt: number, principal: string): Promise<ReplayVerdict>;
  /** Number of live entries. */
  size(): Promise<number>;
  /** Releases connections; the cache is unusable afterwards. */
  close(): Promise<void>;
}

export const REPLAY_CACHE = token<ReplayCache>('ReplayCache');
