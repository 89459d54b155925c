import type { Clock } from '../../ports/clock.port.js';
import type { LogFields, Logger } from '../../ports/logger.port.js';

/** How often an identical warning or error is written at most, and how many distinct kinds are tracked. */
export interface RateLimit {
  readonly windowMs: number;
  readonly maxKinds?: number;
}

interface Window {
  startedAt: number;
  suppressed: number;
}

/**
 * A Logger that writes a burst of identical warnings or errors (same level, message, code and cause)
 * once per window: the first line of a window is written, the rest are counted, and the
 * next line written says how many were left out (`suppressed`). Info lines (the access log) pass as is.
 */
export class RateLimitedLogger implements Logger {
  readonly #inner: Logger;
  readonly #clock: Clock;
  readonly #windowMs: number;
  readonly #maxKinds: number;
  readonly #windows = new Map<string, Window>();

  constructor(inner: Logger, clock: Clock, limit: RateLimit = { windowMs: 10_000 }) {
    this.#inner = inner;
    this.#clock = clock;
    this.#windowMs = limit.windowMs;
    this.#maxKinds = limit.maxKinds ?? 1_000;
  }

  info(message: string, fields?: LogFields): void {
    this.#inner.info(message, fields);
  }

  warn(message: string, fields: LogFields = {}): void {
    this.#limited('warn', message, fields);
  }

  error(message: string, fields: LogFields = {}): void {
    this.#limited('error', message, fields);
  }

  #limited(level: 'warn' | 'error', message: string, fields: LogFields): void {
    const kind = JSON.stringify([level, message, fields.code ?? null, fields.cause ?? null]);
    const now = this.#clock.now();
    const window = this.#windows.get(kind);
    if (window !== undefined && now - window.startedAt < this.#windowMs) {
      window.suppressed += 1;
      return;
    }
    const suppressed = window?.suppressed ?? 0;
    this.#windows.delete(kind);
    if (this.#windows.size >= this.#maxKinds) this.#windows.delete(this.#windows.keys().next().value as string);
    this.#windows.set(kind, { startedAt: now, suppressed: 0 });
    this.#inner[level](message, suppressed > 0 ? { ...fields, suppressed } : fields);
  }
}
