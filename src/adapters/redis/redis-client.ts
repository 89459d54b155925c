import { Redis } from 'ioredis';
import { SessionStoreUnavailableError } from '../../domain/errors/index.js';
import type { Logger } from '../../ports/logger.port.js';

export interface RedisClientOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://` for TLS. Never logged. */
  readonly url: string;
  /** Bound on connecting and on every command, in ms: a Redis that does not answer is unavailable, never a hang. */
  readonly timeoutMs: number;
  /** Names the connection in logs and in `CLIENT LIST`. */
  readonly name: string;
  readonly logger?: Logger;
}

/**
 * Added to every TTL the Redis adapters set. Liveness is decided by the gateway's clock against the
 * stored expiry; Redis's own expiry only frees memory, so it may come late but must never come early:
 * the grace covers gateways whose clocks differ by less than a minute.
 */
export const REDIS_TTL_GRACE_MS = 60_000;

/** Longest pause between two reconnection attempts, in ms. */
const MAX_BACKOFF_MS = 2_000;

/**
 * A Redis client that fails fast and heals by itself:
 * - no offline queue and no retry of a command: while disconnected a command fails at once, and a
 *   command whose connection dropped is not sent again (a replay-cache write must not run twice);
 * - every command and the connect are bounded by `timeoutMs`;
 * - it reconnects forever with exponential backoff (100 ms doubling, at most 2 s), so service
 *   resumes once Redis is back without a restart of the gateway.
 * Losing and regaining the connection is logged once each, without the URL (it may hold a password).
 */
export function createRedisClient(options: RedisClientOptions): Redis {
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectionName: options.name,
    connectTimeout: options.timeoutMs,
    commandTimeout: options.timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt: number) => Math.min(100 * 2 ** Math.min(attempt - 1, 10), MAX_BACKOFF_MS),
  });
  let connected = false;
  client.on('ready', () => {
    if (!connected) options.logger?.info('redis connection ready', { connection: options.name });
    connected = true;
  });
  client.on('error', (error: Error) => {
    if (connected) options.logger?.warn('redis connection lost; reconnecting', { connection: options.name, cause: error.message });
    connected = false;
  });
  return client;
}

/** What every Redis adapter connects with. */
export interface RedisConnectOptions {
  readonly url: string;
  readonly timeoutMs: number;
  readonly logger?: Logger | undefined;
}

/**
 * Opens the client of one Redis adapter, named `name`: `build` makes the adapter over it (defining its
 * scripts), then the client connects as connectRedis says. Answers the adapter.
 */
export async function openRedis<T>(options: RedisConnectOptions, name: string, build: (client: Redis) => T): Promise<T> {
  const client = createRedisClient({
    url: options.url,
    timeoutMs: options.timeoutMs,
    name,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const adapter = build(client);
  await connectRedis(client, options.timeoutMs, options.logger);
  return adapter;
}

/**
 * Connects, waiting at most twice the timeout. A Redis that is down at start is logged, not fatal:
 * the client keeps trying, and until it succeeds the store answers unavailable (503).
 */
export async function connectRedis(client: Redis, timeoutMs: number, logger?: Logger): Promise<void> {
  // connectTimeout covers the TCP connect only: a Redis that accepts but never answers its ready
  // check must not hold the boot either.
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    client.connect().then(
      () => 'ready',
      (error: Error) => error.message,
    ),
    new Promise<string>((done) => (timer = setTimeout(() => done('no answer within the timeout'), 2 * timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') logger?.warn('redis not reachable at start; retrying in the background', { cause: outcome });
}

/** Closes the client: QUIT when connected (bounded by the command timeout), else just disconnects. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through: the connection is going away anyway
    }
  }
  client.disconnect();
}

/** Any failure of a Redis call (unreachable, timed out, refused) as the port's unavailability error. */
export function storeUnavailable(what: string, cause: unknown): SessionStoreUnavailableError {
  return new SessionStoreUnavailableError(`${what} unavailable`, cause);
}
