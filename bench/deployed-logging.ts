import { SystemClock } from '../src/adapters/clock/system-clock.js';
import { PinoLogger } from '../src/adapters/logger/pino-logger.js';
import { turnBatchedDestination } from '../src/adapters/logger/turn-batched-destination.js';
import { RateLimitedLogger } from '../src/adapters/logger/rate-limited-logger.js';
import type { Logger } from '../src/ports/logger.port.js';

/**
 * The logger a deployment runs (pino behind the rate limiter, as `openAdapters` builds it), writing
 * its lines to /dev/null instead of stdout: the bench pays for every access-log line as served, and
 * keeps none of them in memory (an in-memory test logger would hold every line of every run). The
 * lines go out as a deployment's do (`turnBatchedDestination`): synchronous writes, one per
 * event-loop turn.
 */
export function deployedLogger(): Logger {
  return new RateLimitedLogger(new PinoLogger({ destination: turnBatchedDestination('/dev/null') as unknown as NodeJS.WritableStream }), new SystemClock());
}

/**
 * The gateway settings every HTTP row shares with a deployment: metrics on (prom-client, counted per
 * request; its listener on a free port, not scraped during runs).
 */
export const DEPLOYED = { metricsPort: 0 } as const;
