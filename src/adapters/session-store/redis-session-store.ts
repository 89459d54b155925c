import type { Redis } from 'ioredis';
import type { RandomSource } from '../../crypto/random-source.js';
import { SealedTokenError, type SealingKeyring } from '../../domain/session/seal-token.js';
import type { SessionRecord } from '../../domain/session/session.js';
import type { Clock } from '../../ports/clock.port.js';
import type { Logger } from '../../ports/logger.port.js';
import type { SessionStore } from '../../ports/session-store.port.js';
import { principalIndexId } from '../redis/keyed-name.js';
import { closeRedis, openRedis, REDIS_TTL_GRACE_MS, storeUnavailable } from '../redis/redis-client.js';
import { COUNT_SESSIONS, DELETE_SESSION, LIST_SESSIONS, PUT_SESSION } from './redis-session-scripts.js';
import { decodeSession, encodeSession } from './stored-session.js';

export interface RedisSessionStoreOptions {
  readonly url: string;
  /** Bound on connecting and on each command, in ms. */
  readonly timeoutMs: number;
  /** Prefix of every key this store writes (default `keygate:`): several deployments may share a Redis. */
  readonly keyPrefix?: string;
  /** Seals the key-server token of every record (TE_GATEWAY_SESSION_KEY). */
  readonly keyring: SealingKeyring;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger?: Logger;
}

type Script = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Sessions in Redis, shared by every gateway that points at it (architecture.md "scale-out"). Records
 * are keyed by the session id's hash, sealed as a whole (`stored-session.ts`; a principal's index is
 * named by an HMAC of its id, docs/spec.md §12 item 1), and expire by
 * the gateway's clock: reads compare `expiresAt` with `clock.now()`, and Redis drops each record after
 * its remaining lifetime plus a grace (PX, relative: a Redis whose clock is off changes nothing).
 * Any failure to reach Redis throws SessionStoreUnavailableError; nothing waits longer than the timeout.
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: Redis;
  readonly #options: RedisSessionStoreOptions;
  readonly #prefix: string;

  private constructor(client: Redis, options: RedisSessionStoreOptions) {
    this.#client = client;
    this.#options = options;
    this.#prefix = options.keyPrefix ?? 'keygate:';
    client.defineCommand('keygateSessionPut', { numberOfKeys: 4, lua: PUT_SESSION });
    client.defineCommand('keygateSessionDelete', { numberOfKeys: 2, lua: DELETE_SESSION });
    client.defineCommand('keygateSessionList', { numberOfKeys: 1, lua: LIST_SESSIONS });
    client.defineCommand('keygateSessionCount', { numberOfKeys: 1, lua: COUNT_SESSIONS });
  }

  /** Connects (waiting at most the timeout; a Redis down at start is retried in the background). */
  static connect(options: RedisSessionStoreOptions): Promise<RedisSessionStore> {
    return openRedis(options, 'keygate-sessions', (client) => new RedisSessionStore(client, options));
  }

  async put(key: string, record: SessionRecord): Promise<void> {
    const now = this.#options.clock.now();
    if (record.expiresAt <= now) {
      await this.delete(key);
      return;
    }
    const json = encodeSession(key, record, this.#options.keyring, this.#options.random);
    const principal = principalIndexId(record.identity.principalId, this.#options.keyring.current);
    const service = record.actingFor === undefined ? '' : principalIndexId(record.actingFor, this.#options.keyring.current);
    await this.#run(
      'keygateSessionPut',
      [this.#record(key), this.#all(), this.#index(principal), this.#serviceIndex(service)],
      [
        key,
        principal,
        record.expiresAt,
        record.expiresAt - now + REDIS_TTL_GRACE_MS,
        json,
        now,
        this.#index(''),
        service,
        this.#serviceIndex(''),
      ],
    );
  }

  async get(key: string): Promise<SessionRecord | undefined> {
    let found: (string | null)[];
    try {
      found = await this.#client.hmget(this.#record(key), 'e', 'd');
    } catch (error) {
      throw storeUnavailable('session store', error);
    }
    const [expiresAt, json] = found;
    const now = this.#options.clock.now();
    if (expiresAt == null || json == null || Number(expiresAt) <= now) return undefined;
    // The sealed expiry is the one that counts: `e` is in clear, for the scripts only.
    const record = this.#decode(key, json);
    return record !== undefined && record.expiresAt > now ? record : undefined;
  }

  async delete(key: string): Promise<boolean> {
    const removed = await this.#run(
      'keygateSessionDelete',
      [this.#record(key), this.#all()],
      [key, this.#options.clock.now(), this.#index(''), this.#serviceIndex('')],
    );
    return removed === 1;
  }

  /**
   * One index per sealing key the gateway holds (a record put before a key rotation is indexed under
   * the former key's name). A record listed under another principal's index is not that principal's.
   */
  async listByPrincipal(principalId: string): Promise<SessionRecord[]> {
    const now = this.#options.clock.now();
    const seen = new Map<string, SessionRecord>();
    for (const sealingKey of this.#options.keyring.byId.values()) {
      const index = this.#index(principalIndexId(principalId, sealingKey));
      const flat = (await this.#run('keygateSessionList', [index], [now, this.#record('')])) as string[];
      for (let i = 0; i < flat.length; i += 2) {
        if (seen.has(flat[i]!)) continue;
        const record = this.#decode(flat[i]!, flat[i + 1]!);
        if (record !== undefined && record.identity.principalId === principalId && record.expiresAt > now) seen.set(flat[i]!, record);
      }
    }
    return [...seen.values()];
  }

  /** Counted from the list: a record is the principal's only once it decodes under the principal's id. */
  async countByPrincipal(principalId: string): Promise<number> {
    return (await this.listByPrincipal(principalId)).length;
  }

  async deleteByPrincipal(principalId: string, exceptKey?: string): Promise<number> {
    // The index keys are HMACs of the principal id under each sealing key: listing reads them all and
    // keeps only the records that open and name this principal.
    const keys = new Set<string>();
    for (const sealingKey of this.#options.keyring.byId.values()) {
      const index = this.#index(principalIndexId(principalId, sealingKey));
      const flat = (await this.#run('keygateSessionList', [index], [this.#options.clock.now(), this.#record('')])) as string[];
      for (let i = 0; i < flat.length; i += 2) {
        const record = this.#decode(flat[i]!, flat[i + 1]!);
        if (flat[i] !== exceptKey && record?.identity.principalId === principalId) keys.add(flat[i]!);
      }
    }
    let removed = 0;
    for (const key of keys) if (await this.delete(key)) removed++;
    return removed;
  }

  /** As deleteByPrincipal, over the index of the sessions the service delegated (named by an HMAC of its name). */
  async deleteActingFor(serviceName: string): Promise<number> {
    const keys = new Set<string>();
    for (const sealingKey of this.#options.keyring.byId.values()) {
      const index = this.#serviceIndex(principalIndexId(serviceName, sealingKey));
      const flat = (await this.#run('keygateSessionList', [index], [this.#options.clock.now(), this.#record('')])) as string[];
      for (let i = 0; i < flat.length; i += 2) {
        if (this.#decode(flat[i]!, flat[i + 1]!)?.actingFor === serviceName) keys.add(flat[i]!);
      }
    }
    let removed = 0;
    for (const key of keys) if (await this.delete(key)) removed++;
    return removed;
  }

  async count(): Promise<number> {
    return (await this.#run('keygateSessionCount', [this.#all()], [this.#options.clock.now()])) as number;
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }

  async #run(name: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const script = (this.#client as unknown as Record<string, Script>)[name]!;
    try {
      return await script.call(this.#client, ...keys, ...args);
    } catch (error) {
      throw storeUnavailable('session store', error);
    }
  }

  /** A record that does not open or decode is no session (logged, never shown): it was altered or moved. */
  #decode(key: string, json: string): SessionRecord | undefined {
    try {
      return decodeSession(key, json, this.#options.keyring);
    } catch (error) {
      const cause = error instanceof SealedTokenError ? `record ${error.reason}` : 'not a stored session';
      this.#options.logger?.warn('unreadable session record ignored', { session: key.slice(0, 12), cause });
      return undefined;
    }
  }

  #record(key: string): string {
    return `${this.#prefix}session:${key}`;
  }

  #index(principalId: string): string {
    return `${this.#prefix}principal:${principalId}`;
  }

  #serviceIndex(serviceId: string): string {
    return `${this.#prefix}service:${serviceId}`;
  }

  #all(): string {
    return `${this.#prefix}sessions`;
  }
}
