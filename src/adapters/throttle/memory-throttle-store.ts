import type { FailureRecord } from '../../domain/throttle/throttle-policy.js';
import type { Reservation, ThrottleStore } from '../../ports/throttle-store.port.js';

/** Most keys kept; past it the oldest record goes (a spray of names cannot grow the process without bound). */
export const DEFAULT_THROTTLE_ENTRIES = 100_000;

interface Entry extends FailureRecord {
  readonly windowMs: number;
}

/** The throttle counters of one gateway process (port: src/ports/throttle-store.port.ts). */
export class MemoryThrottleStore implements ThrottleStore {
  readonly #failures = new Map<string, Entry>();
  readonly #hits = new Map<string, { slot: number; count: number }>();
  /** key -> reservation id -> when it stops counting */
  readonly #held = new Map<string, Map<string, number>>();
  #reservations = 0;
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? DEFAULT_THROTTLE_ENTRIES;
  }

  async fail(key: string, now: number, windowMs: number): Promise<FailureRecord> {
    const previous = this.#failures.get(key);
    const count = previous && now - previous.lastAt < windowMs ? previous.count + 1 : 1;
    // Re-inserted so the map's order is by last failure: the oldest is first to go.
    this.#failures.delete(key);
    this.#failures.set(key, { count, lastAt: now, windowMs });
    this.#bound(this.#failures, now);
    return { count, lastAt: now };
  }

  async failures(keys: readonly string[]): Promise<(FailureRecord | undefined)[]> {
    return keys.map((key) => {
      const entry = this.#failures.get(key);
      return entry && { count: entry.count, lastAt: entry.lastAt };
    });
  }

  async reset(key: string): Promise<void> {
    this.#failures.delete(key);
  }

  async hit(key: string, now: number): Promise<number> {
    const slot = Math.floor(now / 1000);
    const entry = this.#hits.get(key);
    const count = entry && entry.slot === slot ? entry.count + 1 : 1;
    this.#hits.delete(key);
    this.#hits.set(key, { slot, count });
    if (this.#hits.size > this.#maxEntries) {
      for (const [k, e] of this.#hits) {
        if (this.#hits.size <= this.#maxEntries || e.slot === slot) break;
        this.#hits.delete(k);
      }
    }
    return count;
  }

  /** One turn of the event loop, so atomic: each reservation of a key sees those taken before it. */
  async reserve(keys: readonly string[], now: number, holdMs: number): Promise<Reservation> {
    this.#reservations += 1;
    const id = String(this.#reservations);
    const ahead = keys.map((key) => {
      const held = this.#held.get(key) ?? new Map<string, number>();
      for (const [other, until] of held) if (until <= now) held.delete(other);
      const before = held.size;
      held.set(id, now + holdMs);
      this.#held.set(key, held);
      return before;
    });
    return { id, keys: [...keys], records: await this.failures(keys), ahead };
  }

  async release(reservation: Reservation): Promise<void> {
    for (const key of reservation.keys) {
      const held = this.#held.get(key);
      held?.delete(reservation.id);
      if (held?.size === 0) this.#held.delete(key);
    }
  }

  async close(): Promise<void> {}

  #bound(map: Map<string, Entry>, now: number): void {
    if (map.size <= this.#maxEntries) return;
    for (const [key, entry] of map) {
      if (map.size <= this.#maxEntries && now - entry.lastAt < entry.windowMs) break;
      map.delete(key);
    }
  }
}
