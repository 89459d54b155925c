import type { Clock } from '../../ports/clock.port.js';

/** A clock that moves only when told: tests let time pass with `advance` instead of sleeping. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(milliseconds: number): void {
    if (!(milliseconds >= 0)) throw new RangeError('time only moves forward');
    this.#now += milliseconds;
  }

  set(epochMilliseconds: number): void {
    this.#now = epochMilliseconds;
  }
}
