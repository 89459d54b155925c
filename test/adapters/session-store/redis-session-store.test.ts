import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Redis } from 'ioredis';
import { ManualClock } from '../../../src/adapters/clock/manual-clock.js';
import { MemoryLogger } from '../../../src/adapters/logger/memory-logger.js';
import { CryptoRandom } from '../../../src/adapters/random/crypto-random.js';
import { RedisReplayCache } from '../../../src/adapters/replay-cache/redis-replay-cache.js';
import { RedisSessionStore } from '../../../src/adapters/session-store/redis-session-store.js';
import { SessionStoreUnavailableError } from '../../../src/domain/errors/index.js';
import { Secret } from '../../../src/domain/secret/secret.js';
import { sealingKeyring } from '../../../src/domain/session/seal-token.js';
import type { SessionRecord } from '../../../src/domain/session/session.js';
import { newSessionId, sessionKey, sessionRef } from '../../../src/domain/session/session-id.js';
import { killAllRedis, type RedisServer, spawnRedisOrReason } from '../../_support/redis.js';
import { skipAll } from '../../_support/skip.js';

/** Settled before any test is declared. */
const server: RedisServer | string = await spawnRedisOrReason();
const random = new CryptoRandom();
const keyA = randomBytes(32);
const keyB = randomBytes(32);

function session(clock: ManualClock, principalId = '00000000000000a1') {
  const id = newSessionId(random);
  const record: SessionRecord = {
    ref: sessionRef(id),
    identity: { user: 'alice', systemId: 1001, principalId },
    token: new Secret(`ks-token-${randomBytes(16).toString('hex')}`),
    kind: 'password',
    createdAt: clock.now(),
    expiresAt: clock.now() + 60_000,
  };
  return { id, key: sessionKey(id), record };
}

function timed<T>(run: () => Promise<T>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  return run().then(
    () => ({ ms: Date.now() - started, error: undefined }),
    (error: unknown) => ({ ms: Date.now() - started, error }),
  );
}

if (typeof server === 'string') {
  skipAll('redis session store and replay cache behaviour', server);
} else {
  test.after.always(killAllRedis);
  const prefix = () => `test:${randomBytes(6).toString('hex')}:`;
  const open = (clock: ManualClock, keys: Buffer[], keyPrefix: string, logger?: MemoryLogger) =>
    RedisSessionStore.connect({
      url: server.url,
      timeoutMs: 500,
      keyPrefix,
      keyring: sealingKeyring(keys),
      clock,
      random,
      ...(logger ? { logger } : {}),
    });
  const raw = new Redis(server.url, { lazyConnect: true });
  test.after.always(() => raw.disconnect());

  test.serial('what the store writes to Redis holds no token and no session id', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    const { id, key, record } = session(clock);
    await store.put(key, record);
    const keys = await raw.keys(`${keyPrefix}*`);
    t.true(keys.length >= 3);
    let dump = keys.join('\n');
    for (const name of keys) {
      const type = await raw.type(name);
      dump += `\n${JSON.stringify(type === 'hash' ? await raw.hgetall(name) : await raw.zrange(name, '0', '-1'))}`;
    }
    t.false(dump.includes(record.token.reveal()), 'the token is sealed');
    t.false(dump.includes(id), 'the session id is only ever hashed');
    t.true(dump.includes(key));
    await store.close();
  });

  test.serial('a record lives in Redis for its remaining lifetime plus a minute of grace', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    const { key, record } = session(clock);
    await store.put(key, record);
    const ttl = await raw.pttl(`${keyPrefix}session:${key}`);
    t.true(ttl > 110_000 && ttl <= 120_000, `${ttl} ms`);
    await store.close();
  });

  test.serial('rotation: records sealed under the old key are read once a new key leads, and lost once it is dropped', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const logger = new MemoryLogger();
    const before = await open(clock, [keyA], keyPrefix);
    const old = session(clock);
    await before.put(old.key, old.record);
    const rotated = await open(clock, [keyB, keyA], keyPrefix);
    t.is((await rotated.get(old.key))?.token.reveal(), old.record.token.reveal());
    const fresh = session(clock);
    await rotated.put(fresh.key, fresh.record);
    // The principal index is named under each key: both records are listed while both keys are held.
    t.deepEqual((await rotated.listByPrincipal('00000000000000a1')).map((r) => r.ref).sort(), [old.record.ref, fresh.record.ref].sort());
    const dropped = await open(clock, [keyB], keyPrefix, logger);
    t.is(await dropped.get(old.key), undefined);
    t.is((await dropped.get(fresh.key))?.token.reveal(), fresh.record.token.reveal());
    t.deepEqual(
      (await dropped.listByPrincipal('00000000000000a1')).map((r) => r.ref),
      [fresh.record.ref],
    );
    t.true(logger.lines.some((line) => line.message === 'unreadable session record ignored'));
    for (const store of [before, rotated, dropped]) await store.close();
  });

  test.serial("a record added to another principal's index in Redis is not listed as that principal's", async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    t.teardown(() => store.close());
    const alice = session(clock, '00000000000000a1');
    const bob = session(clock, '00000000000000b2');
    await store.put(alice.key, alice.record);
    await store.put(bob.key, bob.record);
    const indexes = (await raw.keys(`${keyPrefix}principal:*`)).sort();
    t.is(indexes.length, 2);
    for (const index of indexes) for (const member of [alice.key, bob.key]) await raw.zadd(index, clock.now() + 60_000, member);
    t.deepEqual(
      (await store.listByPrincipal('00000000000000a1')).map((r) => r.ref),
      [alice.record.ref],
    );
    t.deepEqual(
      (await store.listByPrincipal('00000000000000b2')).map((r) => r.ref),
      [bob.record.ref],
    );
  });

  test.serial('a record copied under another session key does not open there', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    const victim = session(clock);
    const attacker = session(clock);
    await store.put(victim.key, victim.record);
    await store.put(attacker.key, attacker.record);
    const stolen = await raw.hget(`${keyPrefix}session:${victim.key}`, 'd');
    await raw.hset(`${keyPrefix}session:${attacker.key}`, 'd', stolen!);
    t.is(await store.get(attacker.key), undefined);
    t.truthy(await store.get(victim.key));
    await store.close();
  });

  test.serial('the principal index follows deletes, expiry and a record that changes principal', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    const a = session(clock, '00000000000000a1');
    const b = session(clock, '00000000000000a1');
    await store.put(a.key, a.record);
    await store.put(b.key, { ...b.record, expiresAt: clock.now() + 5_000 });
    t.true(await store.delete(a.key));
    t.deepEqual(
      (await store.listByPrincipal('00000000000000a1')).map((r) => r.ref),
      [b.record.ref],
    );
    clock.advance(5_000);
    t.deepEqual(await store.listByPrincipal('00000000000000a1'), []);
    t.is(await raw.zcard(`${keyPrefix}principal:00000000000000a1`), 0, 'expired members are cleaned on the way');
    const c = session(clock, '00000000000000a1');
    await store.put(c.key, c.record);
    await store.put(c.key, { ...c.record, identity: { ...c.record.identity, principalId: '00000000000000b2' } });
    t.deepEqual(await store.listByPrincipal('00000000000000a1'), []);
    t.is((await store.listByPrincipal('00000000000000b2')).length, 1);
    t.is(await store.count(), 1);
    await raw.del(`${keyPrefix}session:${c.key}`);
    t.deepEqual(await store.listByPrincipal('00000000000000b2'), [], 'an index entry whose record is gone is dropped');
    await store.close();
  });

  test.serial('Redis down: every call fails fast as unavailable, and service resumes once it is back', async (t) => {
    const clock = new ManualClock(Date.now());
    const keyPrefix = prefix();
    const store = await open(clock, [keyA], keyPrefix);
    const cache = await RedisReplayCache.connect({ url: server.url, timeoutMs: 500, keyPrefix, keyring: sealingKeyring([keyA]), clock });
    const kept = session(clock);
    await store.put(kept.key, kept.record);
    await server.stop();
    const calls: [string, () => Promise<unknown>][] = [
      ['get', () => store.get(kept.key)],
      ['put', () => store.put(session(clock).key, session(clock).record)],
      ['delete', () => store.delete(kept.key)],
      ['list', () => store.listByPrincipal('00000000000000a1')],
      ['count', () => store.count()],
      ['remember', () => cache.remember('jkt', 'jti', clock.now() + 30_000, 'principal')],
      ['size', () => cache.size()],
    ];
    for (const [name, call] of calls) {
      const { ms, error } = await timed(call);
      t.true(error instanceof SessionStoreUnavailableError, `${name}: ${String(error)}`);
      t.is((error as SessionStoreUnavailableError).code, 'SESSION_STORE_UNAVAILABLE');
      t.true(ms < 600, `${name} took ${ms} ms`);
    }
    await server.restart();
    let healed = false;
    for (let attempt = 0; attempt < 60 && !healed; attempt++) {
      healed = await store.count().then(
        () => true,
        () => false,
      );
      if (!healed) await new Promise((done) => setTimeout(done, 100));
    }
    t.true(healed, 'the store reconnected by itself');
    t.is((await store.get(kept.key))?.ref, kept.record.ref, 'saved at shutdown, loaded at restart');
    t.is(await cache.remember('jkt', 'jti-after', clock.now() + 30_000, 'principal'), 'fresh');
    await store.close();
    await cache.close();
  });

  test.serial(
    'a store started while Redis is down or hung starts anyway, answers unavailable, and serves once Redis answers',
    async (t) => {
      const clock = new ManualClock(Date.now());
      for (const fault of ['down', 'hung'] as const) {
        const logger = new MemoryLogger();
        await (fault === 'down' ? server.stop() : server.pause());
        const started = Date.now();
        const store = await open(clock, [keyA], prefix(), logger);
        try {
          t.true(Date.now() - started < 1_500, `${fault}: started in ${Date.now() - started} ms`);
          t.true(
            logger.lines.some((line) => line.message === 'redis not reachable at start; retrying in the background'),
            fault,
          );
          await t.throwsAsync(() => store.count(), { instanceOf: SessionStoreUnavailableError });
        } finally {
          await (fault === 'down' ? server.restart() : server.resume());
        }
        let served = false;
        for (let attempt = 0; attempt < 60 && !served; attempt++) {
          served = await store.count().then(
            () => true,
            () => false,
          );
          if (!served) await new Promise((done) => setTimeout(done, 100));
        }
        t.true(served, `${fault}: served once Redis answered`);
        t.true(logger.lines.some((line) => line.message === 'redis connection ready'));
        await store.close();
      }
    },
  );

  test.serial('Redis hung: a call gives up at the command timeout as unavailable', async (t) => {
    const clock = new ManualClock(Date.now());
    const store = await open(clock, [keyA], prefix());
    const cache = await RedisReplayCache.connect({
      url: server.url,
      timeoutMs: 500,
      keyPrefix: prefix(),
      keyring: sealingKeyring([keyA]),
      clock,
    });
    t.is(await store.count(), 0);
    await server.pause();
    try {
      for (const call of [
        (): Promise<unknown> => store.count(),
        (): Promise<unknown> => cache.remember('jkt', 'hung', clock.now() + 30_000, 'principal'),
      ]) {
        const { ms, error } = await timed(call);
        t.true(error instanceof SessionStoreUnavailableError, String(error));
        t.true(ms >= 450 && ms < 1_500, `${ms} ms`);
      }
    } finally {
      await server.resume();
    }
    t.is(await store.count(), 0);
    await store.close();
    await cache.close();
  });
}
