import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SealingKeyring } from '../../domain/session/seal-token.js';
import type { FailureRecord } from '../../domain/throttle/throttle-policy.js';
import type { Logger } from '../../ports/logger.port.js';
import type { Reservation, ThrottleStore } from '../../ports/throttle-store.port.js';
import { throttleKeyName } from '../redis/keyed-name.js';
import { closeRedis, openRedis, REDIS_TTL_GRACE_MS, storeUnavailable } from '../redis/redis-client.js';

export interface RedisThrottleStoreOptions {
  readonly url: string;
  readonly timeoutMs: number;
  readonly keyPrefix?: string;
  /** The session keys: the current one names each counter (`throttleKeyName`). */
  readonly keyring: SealingKeyring;
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

/**
 * KEYS: per key, its failures' hash then its held attempts' sorted set. ARGV: reservation id, now,
 * held until, hold ms + grace. Per key, atomically: drops held attempts past their time, counts the
 * rest (the attempts ahead of this one), holds this one, and reads the failures. Answers
 * `ahead, count, lastAt` per key ('' for no failures).
 */
const RESERVE = `
local out = {}
for i = 1, #KEYS, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i + 1], '-inf', ARGV[2])
  out[#out + 1] = redis.call('ZCARD', KEYS[i + 1])
  redis.call('ZADD', KEYS[i + 1], ARGV[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[i + 1], ARGV[4])
  local failures = redis.call('HMGET', KEYS[i], 'c', 'l')
  out[#out + 1] = failures[1] or ''
  out[#out + 1] = failures[2] or ''
end
return out
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Throttle counters shared by every gateway through Redis (port: src/ports/throttle-store.port.ts).
 * Keys are an HMAC of the user name or address under a key derived from the current session key
 * (`throttleKeyName`), so a dump names nobody and cannot be searched for a known name; a change of the
 * session keys starts the counters afresh. Time is the gateway's clock.
 * Unreachable: SessionStoreUnavailableError; the login is refused (fails closed).
 */
export class RedisThrottleStore implements ThrottleStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #keyring: SealingKeyring;

  private constructor(client: Redis, prefix: string, keyring: SealingKeyring) {
    this.#client = client;
    this.#prefix = prefix;
    this.#keyring = keyring;
    client.defineCommand('keygateThrottleFail', { numberOfKeys: 1, lua: FAIL });
    client.defineCommand('keygateThrottleHit', { numberOfKeys: 1, lua: HIT });
    client.defineCommand('keygateThrottleReserve', { lua: RESERVE });
  }

  static connect(options: RedisThrottleStoreOptions): Promise<RedisThrottleStore> {
    return openRedis(
      options,
      'keygate-throttle',
      (client) => new RedisThrottleStore(client, `${options.keyPrefix ?? 'keygate:'}throttle:`, options.keyring),
    );
  }

  async fail(key: string, now: number, windowMs: number): Promise<FailureRecord> {
    const count = (await this.#call(() =>
      this.#script('keygateThrottleFail')(this.#key(key), now, windowMs, REDIS_TTL_GRACE_MS),
    )) as number;
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
      return count === null || count === undefined || lastAt === null || lastAt === undefined
        ? undefined
        : { count: Number(count), lastAt: Number(lastAt) };
    });
  }

  async reset(key: string): Promise<void> {
    await this.#call(() => this.#client.del(this.#key(key)));
  }

  async hit(key: string, now: number): Promise<number> {
    return (await this.#call(() => this.#script('keygateThrottleHit')(`${this.#key(key)}:${Math.floor(now / 1000)}`))) as number;
  }

  async reserve(keys: readonly string[], now: number, holdMs: number): Promise<Reservation> {
    const id = randomBytes(12).toString('base64url');
    const names = keys.flatMap((key) => [this.#key(key), this.#heldKey(key)]);
    const run = () => this.#script('keygateThrottleReserve')(names.length, ...names, id, now, now + holdMs, holdMs + REDIS_TTL_GRACE_MS);
    const flat = (await this.#call(run)) as (number | string)[];
    const records = keys.map((_, i) => {
      const [count, lastAt] = [flat[i * 3 + 1], flat[i * 3 + 2]];
      return count === '' || lastAt === '' ? undefined : { count: Number(count), lastAt: Number(lastAt) };
    });
    return { id, keys: [...keys], records, ahead: keys.map((_, i) => Number(flat[i * 3])) };
  }

  async release(reservation: Reservation): Promise<void> {
    const pipeline = this.#client.pipeline();
    for (const key of reservation.keys) pipeline.zrem(this.#heldKey(key), reservation.id);
    await this.#call(() => pipeline.exec());
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }

  #heldKey(key: string): string {
    return `${this.#key(key)}:held`;
  }

  #key(key: string): string {
    return this.#prefix + throttleKeyName(key, this.#keyring.current);
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
