import type { Clock } from '../../ports/clock.port.js';
import type { ReplayCache, ReplayVerdict } from '../../ports/replay-cache.port.js';
import { ExpiryHeap } from '../expiry-heap.js';

export interface MemoryReplayCacheOptions {
  /** Most live entries held at once (docs/spec.md §5.4: bounded). */
  readonly maxEntries?: number;
  /** Most live entries of one `jkt` (docs/spec.md §12 item 6); default: the whole cache. */
  readonly maxEntriesPerKey?: number;
  /** Most live entries of one principal, over all its keys; default: the whole cache. */
  readonly maxEntriesPerPrincipal?: number;
}

export const DEFAULT_REPLAY_CACHE_ENTRIES = 100_000;

/** Whose live entry it is: the counts its expiry releases. */
interface Owners {
  readonly jkt: string;
  readonly principal: string;
}

/**
 * The replay cache in this process's memory (one gateway process). Entries leave exactly when they
 * expire, found in order through a min-heap on `expiresAt`, so each call does O(log n) work even
 * when the cache is full; a live entry is never evicted. JavaScript runs each call to completion,
 * so set-if-absent is atomic here.
 */
export class MemoryReplayCache implements ReplayCache {
  readonly #clock: Clock;
  readonly #maxEntries: number;
  readonly #maxPerKey: number;
  readonly #maxPerPrincipal: number;
  readonly #entries = new Set<string>();
  /** Live entries per `jkt` (absent: none). */
  readonly #perKey = new Map<string, number>();
  /** Live entries per principal (absent: none). */
  readonly #perPrincipal = new Map<string, number>();
  readonly #byExpiry = new ExpiryHeap<Owners>();

  constructor(clock: Clock, options: MemoryReplayCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_REPLAY_CACHE_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    const maxPerKey = options.maxEntriesPerKey ?? maxEntries;
    if (!Number.isSafeInteger(maxPerKey) || maxPerKey < 1) throw new RangeError('maxEntriesPerKey must be a positive integer');
    const maxPerPrincipal = options.maxEntriesPerPrincipal ?? maxEntries;
    if (!Number.isSafeInteger(maxPerPrincipal) || maxPerPrincipal < 1)
      throw new RangeError('maxEntriesPerPrincipal must be a positive integer');
    this.#clock = clock;
    this.#maxEntries = maxEntries;
    this.#maxPerKey = maxPerKey;
    this.#maxPerPrincipal = maxPerPrincipal;
  }

  async remember(jkt: string, jti: string, expiresAt: number, principal: string): Promise<ReplayVerdict> {
    if (!Number.isFinite(expiresAt)) throw new RangeError('expiresAt must be milliseconds since the epoch');
    const now = this.#clock.now();
    this.#expire(now);
    const key = `${jkt.length}:${jkt}:${jti}`;
    if (this.#entries.has(key)) return 'replayed';
    if (expiresAt <= now) return 'fresh';
    if (this.#entries.size >= this.#maxEntries) return 'full';
    const ofKey = this.#perKey.get(jkt) ?? 0;
    if (ofKey >= this.#maxPerKey) return 'key-full';
    const ofPrincipal = this.#perPrincipal.get(principal) ?? 0;
    if (ofPrincipal >= this.#maxPerPrincipal) return 'principal-full';
    this.#entries.add(key);
    this.#perKey.set(jkt, ofKey + 1);
    this.#perPrincipal.set(principal, ofPrincipal + 1);
    this.#byExpiry.push(key, expiresAt, { jkt, principal });
    return 'fresh';
  }

  async size(): Promise<number> {
    this.#expire(this.#clock.now());
    return this.#entries.size;
  }

  async close(): Promise<void> {
    this.#entries.clear();
    this.#perKey.clear();
    this.#perPrincipal.clear();
    this.#byExpiry.clear();
  }

  /** Drops every entry whose `expiresAt` has come. The heap and the set hold the same keys. */
  #expire(now: number): void {
    for (let due = this.#byExpiry.popDue(now); due !== undefined; due = this.#byExpiry.popDue(now)) {
      this.#entries.delete(due.key);
      release(this.#perKey, due.value.jkt);
      release(this.#perPrincipal, due.value.principal);
    }
  }
}

/** One live entry of `owner` has gone: its count drops, and leaves the map at zero. */
function release(counts: Map<string, number>, owner: string): void {
  const left = counts.get(owner)! - 1;
  if (left > 0) counts.set(owner, left);
  else counts.delete(owner);
}
