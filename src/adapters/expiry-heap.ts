/** One scheduled expiry: what expires (`key`, `value`) and when (milliseconds since the epoch). */
export interface Expiry<T> {
  readonly key: string;
  readonly at: number;
  readonly value: T;
}

/**
 * A binary min-heap of expiries on `at`: push and pop are O(log n), the earliest is at the top. An
 * entry whose value was replaced or removed meanwhile is the caller's to recognise and skip.
 */
export class ExpiryHeap<T> {
  readonly #heap: Expiry<T>[] = [];

  get size(): number {
    return this.#heap.length;
  }

  push(key: string, at: number, value: T): void {
    const heap = this.#heap;
    const entry = { key, at, value };
    let index = heap.push(entry) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent]!.at <= at) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = entry;
  }

  /** Removes and answers the earliest entry if it is due at `now` (`at <= now`), else undefined. */
  popDue(now: number): Expiry<T> | undefined {
    const heap = this.#heap;
    const top = heap[0];
    if (top === undefined || top.at > now) return undefined;
    const last = heap.pop()!;
    if (heap.length > 0) this.#siftDown(last);
    return top;
  }

  clear(): void {
    this.#heap.length = 0;
  }

  #siftDown(entry: Expiry<T>): void {
    const heap = this.#heap;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.at < heap[left]!.at ? right : left;
      if (heap[child]!.at >= entry.at) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = entry;
  }
}
