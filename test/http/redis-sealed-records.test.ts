import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { startGateway, type TestGateway } from '../_support/gateway.js';
import { makeSigner } from '../_support/proof-builder.js';
import { killAllRedis, spawnRedis, whyNoRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';

/** Issue 13 §4: whoever can write to Redis cannot change a session; whoever can read it learns nothing. */
const servers = await Promise.all([spawnRedis()]).catch(whyNoRedis);
const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

async function redisGateway(t: ExecutionContext, url: string): Promise<{ gw: TestGateway; redis: Redis; prefix: string }> {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const gw = await startGateway(t, {
    sessionStore: { kind: 'redis', url, sessionKeys: [randomBytes(32).toString('base64')], timeoutMs: 1_000, keyPrefix: prefix },
  });
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  t.teardown(() => redis.disconnect());
  await redis.connect();
  return { gw, redis, prefix };
}

/** Alice's bound scoped session over a fresh key: what an attacker with Redis access would like to loosen. */
async function boundSession(gw: TestGateway) {
  const signer = await makeSigner('ES256');
  const alice = await gw.login('alice');
  const ttag = (await gw.call('POST', '/keys', { headers: { 'X-Session': alice } })).body.ttag as string;
  const reply = await gw.call('POST', '/api/session/scoped', {
    headers: bearer(alice),
    body: { objects: [ttag], rights: ['encrypt', 'decrypt'], senderKey: signer.publicJwk },
  });
  if (reply.status !== 201) throw new Error(`scoped: ${reply.status} ${reply.text}`);
  const view = (await gw.call('GET', '/api/session', { headers: bearer(alice) })).body;
  return { alice, ttag, scoped: reply.body.sessionId as string, principalId: view.principalId as string, signer };
}

/** Every key under the prefix with its raw content, whatever its type. */
async function dump(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of await redis.keys(`${prefix}*`)) {
    const type = await redis.type(key);
    const value =
      type === 'hash'
        ? await redis.hgetall(key)
        : type === 'zset'
          ? await redis.call('ZRANGE', key, '0', '-1', 'WITHSCORES')
          : type === 'set'
            ? await redis.smembers(key)
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : await redis.get(key);
    out.set(key, JSON.stringify(value));
  }
  return out;
}

/** The session record hashes among the keys (not an index entry, nor a throttle counter such as a mint count). */
async function recordKeys(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const key of await redis.keys(`${prefix}session:*`)) if ((await redis.type(key)) === 'hash') keys.push(key);
  return keys;
}

/**
 * What an attacker does to a record: with the binding in clear, removes it; with the record sealed,
 * the best it can do is to alter the sealed text (one character in the middle).
 */
function altered(value: string): string {
  try {
    const record = JSON.parse(value) as Record<string, unknown>;
    delete record.jkt;
    delete record.objects;
    delete record.rights;
    return JSON.stringify(record);
  } catch {
    const at = Math.floor(value.length / 2);
    return value.slice(0, at) + (value[at] === 'A' ? 'B' : 'A') + value.slice(at + 1);
  }
}

if (typeof servers === 'string') {
  skipAll('sealed session records in Redis', servers);
} else {
  const [server] = servers;
  test.after.always(killAllRedis);

  test.serial('a record whose binding is removed in Redis is refused as an unknown session, and logged', async (t) => {
    const { gw, redis, prefix } = await redisGateway(t, server.url);
    const { scoped } = await boundSession(gw);
    t.is((await gw.call('GET', '/api/session', { headers: bearer(scoped) })).body.code, 'PROOF_MISSING');
    for (const key of await recordKeys(redis, prefix)) {
      const fields = await redis.hgetall(key);
      for (const [field, value] of Object.entries(fields)) if (value.length > 40) await redis.hset(key, field, altered(value));
    }
    const reply = await gw.call('GET', '/api/session', { headers: bearer(scoped) });
    t.is(reply.status, 401, reply.text);
    t.is(reply.body.code, 'SESSION_UNKNOWN');
    t.true(
      gw.logger.lines.some((line) => line.level === 'warn' && line.message === 'unreadable session record ignored'),
      JSON.stringify(gw.logger.lines),
    );
  });

  test.serial("a record copied over another session's key is refused", async (t) => {
    const { gw, redis, prefix } = await redisGateway(t, server.url);
    const { scoped, alice } = await boundSession(gw);
    const [first, second] = await recordKeys(redis, prefix);
    // Both are alice's: copying the unbound one over the bound one would strip the binding.
    const [a, b] = [await redis.hgetall(first!), await redis.hgetall(second!)];
    await redis.hset(first!, b);
    await redis.hset(second!, a);
    for (const id of [scoped, alice]) {
      const reply = await gw.call('GET', '/api/session', { headers: bearer(id) });
      t.is(reply.status, 401, reply.text);
      t.is(reply.body.code, 'SESSION_UNKNOWN');
    }
  });

  test.serial('a Redis dump holds no identity, ttag or right in clear; listing and counting still work', async (t) => {
    const { gw, redis, prefix } = await redisGateway(t, server.url);
    const { alice, ttag, principalId } = await boundSession(gw);
    await gw.login('bob');
    const everything = [...(await dump(redis, prefix))].map(([key, value]) => `${key} ${value}`).join('\n');
    t.true(everything.length > 0);
    for (const clear of [
      'alice',
      'bob',
      principalId,
      ttag,
      Buffer.from(ttag, 'base64').toString('base64url'),
      '"encrypt"',
      '"decrypt"',
      'scoped',
      'jkt',
    ]) {
      // A whole word, not any substring: three letters such as `bob` or `jkt` turn up by chance inside base64 ciphertext.
      const word = new RegExp(`(?<![A-Za-z0-9_+/-])${clear.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![A-Za-z0-9_+/=-])`);
      t.false(word.test(everything), `${clear} is in the dump:\n${everything}`);
    }
    t.is((await gw.call('GET', '/api/sessions', { headers: bearer(alice) })).body.items.length, 2);
    t.is((await gw.call('GET', '/health')).body.sessions, 3);
  });
}

if (typeof servers !== 'string') {
  const [server] = servers;

  test.serial('after sign-ins and proofs, no key or value of the whole Redis keyspace names a principal in clear', async (t) => {
    const { gw, redis } = await redisGateway(t, server.url);
    const { scoped, principalId, signer } = await boundSession(gw);
    for (let i = 0; i < 3; i++) t.is((await gw.bound(signer, 'GET', '/api/session', { bearer: scoped })).status, 200);
    await gw.login('bob');
    await gw.call('POST', '/api/session', { body: { user: 'carol', password: 'not-the-password' } });
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ count: 100 })) keys.push(...(batch as string[]));
    t.true(
      keys.some((key) => key.includes('replay')),
      `the replay cache wrote its sets: ${keys.join(' ')}`,
    );
    const values = await dump(redis, '');
    const everything = [...values].map(([key, value]) => `${key} ${value}`).join('\n');
    for (const key of keys) t.true(values.has(key));
    for (const clear of ['alice', 'bob', 'carol', principalId]) {
      const word = new RegExp(`(?<![A-Za-z0-9_+/-])${clear}(?![A-Za-z0-9_+/=-])`);
      t.false(word.test(everything), `${clear} is in the keyspace:\n${everything}`);
    }
  });
}
