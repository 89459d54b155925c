import type { SleepOptions, Timer } from '../../ports/clock.port.js';

/** A clock that moves only when told: tests let time pass with `advance` instead of sleeping. */
export class ManualClock implements Timer {
  #now: number;
  /** Pending sleeps: when each wakes, and how to wake it. */
  readonly #sleepers: { readonly at: number; readonly wake: () => void; readonly background: boolean }[] = [];

  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Resolves when `advance` or `set` moves the clock to `now() + milliseconds` or past it. */
  sleep(milliseconds: number, options?: SleepOptions): Promise<void> {
    if (!(milliseconds > 0)) return Promise.resolve();
    const background = options?.background === true;
    return new Promise((wake) => this.#sleepers.push({ at: this.#now + milliseconds, wake, background }));
  }

  /** When the earliest pending sleep wakes, a periodic task's aside (undefined: no request sleeps on this clock). */
  nextWake(): number | undefined {
    const waits = this.#sleepers.filter((sleeper) => !sleeper.background).map((sleeper) => sleeper.at);
    return waits.length === 0 ? undefined : Math.min(...waits);
  }

  advance(milliseconds: number): void {
    if (!(milliseconds >= 0)) throw new RangeError('time only moves forward');
    this.#now += milliseconds;
    this.#wakeDue();
  }

  set(epochMilliseconds: number): void {
    this.#now = epochMilliseconds;
    this.#wakeDue();
  }

  #wakeDue(): void {
    for (let i = this.#sleepers.length - 1; i >= 0; i--) {
      const sleeper = this.#sleepers[i]!;
      if (sleeper.at <= this.#now) {
        this.#sleepers.splice(i, 1);
        sleeper.wake();
      }
    }
  }
}
