import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { MemoryThrottleStore } from '../../src/adapters/throttle/memory-throttle-store.js';
import { RedisThrottleStore } from '../../src/adapters/throttle/redis-throttle-store.js';
import { sealingKeyring } from '../../src/domain/session/seal-token.js';
import { testRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';
import { throttleStoreContract } from './throttle-store.contract.js';

// Settled before any test is declared: ava wants every declaration in the first turn.
const redis = await testRedis();
const keyring = sealingKeyring([randomBytes(32)]);

throttleStoreContract('memory', async () => new MemoryThrottleStore());

test('memory throttle store: bounded, the oldest record goes first', async (t) => {
  const store = new MemoryThrottleStore({ maxEntries: 3 });
  for (let i = 0; i < 5; i++) await store.fail(`name:${i}`, 1000 + i, 900_000);
  const left = await store.failures(['name:0', 'name:1', 'name:2', 'name:3', 'name:4']);
  t.deepEqual(
    left.map((record) => record?.count),
    [undefined, undefined, 1, 1, 1],
  );
});

if ('skipped' in redis) {
  skipAll('redis throttle store contract', redis.skipped);
} else {
  test.after.always(() => redis.close());
  throttleStoreContract('redis', () =>
    RedisThrottleStore.connect({ url: redis.url, timeoutMs: 2_000, keyPrefix: `test:${randomBytes(6).toString('hex')}:`, keyring }),
  );

  test('redis throttle store: a dump names no user, and cannot be searched for a known name', async (t) => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const store = await RedisThrottleStore.connect({ url: redis.url, timeoutMs: 2_000, keyPrefix: prefix, keyring });
    t.teardown(() => store.close());
    await store.fail('name:alice-the-admin', Date.now(), 900_000);
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    t.teardown(() => client.disconnect());
    const keys = await client.keys(`${prefix}*`);
    t.is(keys.length, 1);
    t.false(keys[0]!.includes('alice'));
    const unkeyed = createHash('sha256').update('name:alice-the-admin').digest('base64url');
    t.false(keys[0]!.includes(unkeyed), 'the name is an HMAC under the session keys, not a plain hash anyone can compute');
  });
}
