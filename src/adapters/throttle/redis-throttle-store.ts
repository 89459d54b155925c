import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FailureRecord } from '../../domain/throttle/throttle-policy.js';
import type { Logger } from '../../ports/logger.port.js';
import type { ThrottleStore } from '../../ports/throttle-store.port.js';
import { closeRedis, openRedis, REDIS_TTL_GRACE_MS, storeUnavailable } from '../redis/redis-client.js';

export interface RedisThrottleStoreOptions {
  readonly url: string;
  readonly timeoutMs: number;
  readonly keyPrefix?: string;
  readonly logger?: Logger;
}

/**
 * KEYS: the key's hash. ARGV: now, window ms, grace ms. One failure, atomically: a key idle for the
 * window starts again at 1. The hash lives a window (plus grace) past its last failure.
 */
const FAIL = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local last = tonumber(redis.call('HGET', KEYS[1], 'l'))
local count = 1
if last and now - last < window then count = tonumber(redis.call('HGET', KEYS[1], 'c')) + 1 end
redis.call('HSET', KEYS[1], 'c', count, 'l', now)
redis.call('PEXPIRE', KEYS[1], window + tonumber(ARGV[3]))
return count
`;

/** KEYS: the slot's counter. One request in the slot; the counter lives two slots. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
return count
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Throttle counters shared by every gateway through Redis (port: src/ports/throttle-store.port.ts).
 * Keys are SHA-256 of the user name or address, so a dump names nobody. Time is the gateway's clock.
 * Unreachable: SessionStoreUnavailableError; the login is refused (fails closed).
 */
export class RedisThrottleStore implements ThrottleStore {
  readonly #client: Redis;
  readonly #prefix: string;

  private constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
    client.defineCommand('keygateThrottleFail', { numberOfKeys: 1, lua: FAIL });
    client.defineCommand('keygateThrottleHit', { numberOfKeys: 1, lua: HIT });
  }

  static connect(options: RedisThrottleStoreOptions): Promise<RedisThrottleStore> {
    return openRedis(options, 'keygate-throttle', (client) => new RedisThrottleStore(client, `${options.keyPrefix ?? 'keygate:'}throttle:`));
  }

  async fail(key: string, now: number, windowMs: number): Promise<FailureRecord> {
    const count = (await this.#call(() => this.#script('keygateThrottleFail')(this.#key(key), now, windowMs, REDIS_TTL_GRACE_MS))) as number;
    return { count, lastAt: now };
  }

  async failures(keys: readonly string[]): Promise<(FailureRecord | undefined)[]> {
    const pipeline = this.#client.pipeline();
    for (const key of keys) pipeline.hmget(this.#key(key), 'c', 'l');
    const replies = (await this.#call(() => pipeline.exec())) as [Error | null, (string | null)[]][] | null;
    return keys.map((_, i) => {
      const [error, values] = replies?.[i] ?? [new Error('no reply'), []];
      if (error) throw storeUnavailable('throttle store', error);
      const [count, lastAt] = values;
      return count === null || count === undefined || lastAt === null || lastAt === undefined ? undefined : { count: Number(count), lastAt: Number(lastAt) };
    });
  }

  async reset(key: string): Promise<void> {
    await this.#call(() => this.#client.del(this.#key(key)));
  }

  async hit(key: string, now: number): Promise<number> {
    return (await this.#call(() => this.#script('keygateThrottleHit')(`${this.#key(key)}:${Math.floor(now / 1000)}`))) as number;
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }

  #key(key: string): string {
    return this.#prefix + createHash('sha256').update(key).digest('base64url');
  }

  #script(name: string): Script {
    const script = (this.#client as unknown as Record<string, Script>)[name]!;
    return (...args) => script.call(this.#client, ...args);
  }

  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw storeUnavailable('throttle store', error);
    }
  }
}
