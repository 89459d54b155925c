import type { Timer } from '../../ports/clock.port.js';

/** The machine's wall clock. */
export class SystemClock implements Timer {
  now(): number {
    return Date.now();
  }

  sleep(milliseconds: number): Promise<void> {
    // Unreferenced: a wait in progress never holds a stopping process open.
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds)).unref());
  }
}
