import { RedisReplayCache } from '../adapters/replay-cache/redis-replay-cache.js';
import { RedisSessionStore } from '../adapters/session-store/redis-session-store.js';
import { sealingKeyring } from '../domain/session/seal-token.js';
import type { Clock } from '../ports/clock.port.js';
import type { Logger } from '../ports/logger.port.js';
import type { Random } from '../ports/random.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { GatewayConfig } from './config.js';

/** The shared session state of a scale-out deployment, or nothing (the container's memory adapters). */
export interface SessionState {
  readonly sessionStore?: SessionStore;
  readonly replayCache?: ReplayCache;
}

/**
 * With `sessionStore.kind` redis: the Redis session store and replay cache, connected (each waits at
 * most its timeout; a Redis down at start is retried in the background and reported by /health).
 * Parts the caller already supplies are not created.
 */
export async function startSessionState(
  config: GatewayConfig,
  deps: { clock: Clock; random: Random; logger: Logger },
  supplied: SessionState,
): Promise<SessionState> {
  const settings = config.sessionStore;
  if (settings.kind !== 'redis') return {};
  const common = { url: settings.url, timeoutMs: settings.timeoutMs, keyPrefix: settings.keyPrefix, clock: deps.clock, logger: deps.logger };
  const keyring = sealingKeyring(settings.sessionKeys.map((key) => Buffer.from(key, 'base64')));
  const [sessionStore, replayCache] = await Promise.all([
    supplied.sessionStore ?? RedisSessionStore.connect({ ...common, keyring, random: deps.random }),
    supplied.replayCache ?? RedisReplayCache.connect({ ...common, maxEntries: config.replayCacheSize }),
  ]);
  return { sessionStore, replayCache };
}
