/** One scheduled expiry: what expires (`key`, `value`) and when (milliseconds since the epoch). */
export interface Expiry<T> {
  readonly key: string;
  readonly at: number;
  readonly value: T;
}

/**
 * A binary min-heap of expiries on `at`: push and pop are O(log n), the earliest is at the top. An
 * entry whose value was replaced or removed meanwhile is the caller's to recognise and skip. The
 * entries are kept in three parallel arrays, not as one object each: a store holds one entry per live
 * record, and the times sit unboxed in an array of doubles (8 bytes, where an object and a boxed
 * number would take 56).
 */
export class ExpiryHeap<T> {
  readonly #keys: string[] = [];
  readonly #ats: number[] = [];
  readonly #values: T[] = [];

  get size(): number {
    return this.#keys.length;
  }

  push(key: string, at: number, value: T): void {
    this.#keys.push(key);
    this.#ats.push(at);
    this.#values.push(value);
    this.#siftUp(this.#keys.length - 1, key, at, value);
  }

  /** Removes and answers the earliest entry if it is due at `now` (`at <= now`), else undefined. */
  popDue(now: number): Expiry<T> | undefined {
    const keys = this.#keys;
    if (keys.length === 0 || this.#ats[0]! > now) return undefined;
    const top = { key: keys[0]!, at: this.#ats[0]!, value: this.#values[0]! };
    const key = keys.pop()!;
    const at = this.#ats.pop()!;
    const value = this.#values.pop()!;
    if (keys.length > 0) this.#siftDown(key, at, value);
    return top;
  }

  clear(): void {
    this.#keys.length = 0;
    this.#ats.length = 0;
    this.#values.length = 0;
  }

  #place(index: number, key: string, at: number, value: T): void {
    this.#keys[index] = key;
    this.#ats[index] = at;
    this.#values[index] = value;
  }

  #move(to: number, from: number): void {
    this.#place(to, this.#keys[from]!, this.#ats[from]!, this.#values[from]!);
  }

  #siftUp(start: number, key: string, at: number, value: T): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.#ats[parent]! <= at) break;
      this.#move(index, parent);
      index = parent;
    }
    this.#place(index, key, at, value);
  }

  #siftDown(key: string, at: number, value: T): void {
    const ats = this.#ats;
    const length = ats.length;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && ats[right]! < ats[left]! ? right : left;
      if (ats[child]! >= at) break;
      this.#move(index, child);
      index = child;
    }
    this.#place(index, key, at, value);
  }
}
