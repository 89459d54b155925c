import type { Redis } from 'ioredis';
import type { SealingKeyring } from '../../domain/session/seal-token.js';
import type { Clock } from '../../ports/clock.port.js';
import type { Logger } from '../../ports/logger.port.js';
import type { ReplayCache, ReplayVerdict } from '../../ports/replay-cache.port.js';
import { principalIndexId } from '../redis/keyed-name.js';
import { closeRedis, openRedis, REDIS_TTL_GRACE_MS, storeUnavailable } from '../redis/redis-client.js';
import { DEFAULT_REPLAY_CACHE_ENTRIES } from './memory-replay-cache.js';

export interface RedisReplayCacheOptions {
  readonly url: string;
  /** Bound on connecting and on each command, in ms. */
  readonly timeoutMs: number;
  /** Prefix of the cache's key (default `keygate:`). */
  readonly keyPrefix?: string;
  /** Most live entries, across every gateway sharing the cache (docs/spec.md §5.4: bounded). */
  readonly maxEntries?: number;
  /** Most live entries of one `jkt`, across every gateway (docs/spec.md §12 item 6); default: the whole cache. */
  readonly maxEntriesPerKey?: number;
  /** Most live entries of one principal over all its keys, across every gateway; default: the whole cache. */
  readonly maxEntriesPerPrincipal?: number;
  /** The session keys: the current one names each principal's set (`principalIndexId`). */
  readonly keyring: SealingKeyring;
  readonly clock: Clock;
  readonly logger?: Logger;
}

/**
 * One sorted set holds every entry: member `<len(jkt)>:<jkt>:<jti>`, score its expiresAt. The script
 * drops entries at or past `now`, then decides; it runs atomically, so of concurrent calls for one
 * member exactly one adds it, and the size is the set's ZCARD: a count that cannot drift from the
 * entries, and that expiry lowers by itself. A live entry is never removed to make room.
 * A second sorted set per `jkt` (member the jti, same score) holds that key's share (docs/spec.md §12 item 6); it
 * is cleaned the same way when its key is used, and its TTL empties it once its key falls silent.
 * A third sorted set per principal (member the entry's member, same score) holds the principal's share
 * over all its keys, kept the same way; it is named by the principal's keyed hash under the current
 * session key (`principalIndexId`, as the session store's indexes), never by its id. A rotation of
 * the session keys starts each principal's share afresh, which entries living seconds make harmless.
 * The sets' own TTL (the longest entry's remaining life plus a grace) only lets an idle Redis empty
 * itself; liveness is decided by the scores.
 * KEYS: the set, the key's set, the principal's set. ARGV: member, expiresAt, now, max entries, grace ms,
 * jti, max per key, max per principal.
 */
const REMEMBER = `
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'replayed' end
local expiresAt = tonumber(ARGV[2])
if expiresAt <= now then return 'fresh' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 'full' end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return 'key-full' end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then return 'principal-full' end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
local ttl = expiresAt - now + tonumber(ARGV[5])
for i = 1, 3 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 'fresh'
`;

const SIZE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZCARD', KEYS[1])
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;

/**
 * The proof replay cache shared by every gateway through Redis (port: src/ports/replay-cache.port.ts).
 * `remember` is one script, one round trip: check, bound and write together.
 *
 * Time is the gateway's clock, passed to the script as `now`, not the Redis server's TIME: the port
 * defines liveness by the cache's clock, the proof's own window (`iat`) is judged by the same clock,
 * and tests move it by hand. Gateways sharing a cache must keep their clocks in step (NTP); a gateway
 * whose clock runs ahead forgets entries early by its lead, which the proof window's skew allowance
 * already covers.
 *
 * Unreachable or timed out: SessionStoreUnavailableError ("replay cache unavailable"), the same 503
 * (500 on the seven operations) as the session store it shares Redis with; the request is refused.
 */
export class RedisReplayCache implements ReplayCache {
  readonly #client: Redis;
  readonly #options: RedisReplayCacheOptions;
  readonly #key: string;
  readonly #maxEntries: number;
  readonly #maxPerKey: number;
  readonly #maxPerPrincipal: number;

  private constructor(client: Redis, options: RedisReplayCacheOptions) {
    const maxEntries = options.maxEntries ?? DEFAULT_REPLAY_CACHE_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.#client = client;
    this.#options = options;
    this.#key = `${options.keyPrefix ?? 'keygate:'}replay`;
    this.#maxEntries = maxEntries;
    this.#maxPerKey = options.maxEntriesPerKey ?? maxEntries;
    if (!Number.isSafeInteger(this.#maxPerKey) || this.#maxPerKey < 1) throw new RangeError('maxEntriesPerKey must be a positive integer');
    this.#maxPerPrincipal = options.maxEntriesPerPrincipal ?? maxEntries;
    if (!Number.isSafeInteger(this.#maxPerPrincipal) || this.#maxPerPrincipal < 1) {
      throw new RangeError('maxEntriesPerPrincipal must be a positive integer');
    }
    client.defineCommand('keygateReplayRemember', { numberOfKeys: 3, lua: REMEMBER });
    client.defineCommand('keygateReplaySize', { numberOfKeys: 1, lua: SIZE });
  }

  /** Connects (waiting at most the timeout; a Redis down at start is retried in the background). */
  static connect(options: RedisReplayCacheOptions): Promise<RedisReplayCache> {
    return openRedis(options, 'keygate-replay', (client) => new RedisReplayCache(client, options));
  }

  async remember(jkt: string, jti: string, expiresAt: number, principal: string): Promise<ReplayVerdict> {
    if (!Number.isFinite(expiresAt)) throw new RangeError('expiresAt must be milliseconds since the epoch');
    const member = `${jkt.length}:${jkt}:${jti}`;
    const args = [
      member,
      expiresAt,
      this.#options.clock.now(),
      this.#maxEntries,
      REDIS_TTL_GRACE_MS,
      jti,
      this.#maxPerKey,
      this.#maxPerPrincipal,
    ];
    const keys = [`${this.#key}:key:${jkt}`, `${this.#key}:principal:${principalIndexId(principal, this.#options.keyring.current)}`];
    return (await this.#run('keygateReplayRemember', keys, ...args)) as ReplayVerdict;
  }

  async size(): Promise<number> {
    return (await this.#run('keygateReplaySize', [], this.#options.clock.now())) as number;
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }

  async #run(name: string, keys: readonly string[], ...args: (string | number)[]): Promise<unknown> {
    const script = (this.#client as unknown as Record<string, Script>)[name]!;
    try {
      return await script.call(this.#client, this.#key, ...keys, ...args);
    } catch (error) {
      throw storeUnavailable('replay cache', error);
    }
  }
}
