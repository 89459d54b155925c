import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { replyAfterClockWaits } from '../_support/clock-waits.js';
import { PASSWORDS, startGateway, type TestGateway } from '../_support/gateway.js';
import { testRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';

/** Two gateways on real sockets sharing their throttle counters through one Redis. */
const redis = await testRedis();

const admin = (address: string, password: string) => ({ body: { user: 'admin', password }, headers: { 'x-forwarded-for': address } });

if ('skipped' in redis) {
  skipAll('login throttling over Redis', redis.skipped);
} else {
  test.after.always(() => redis.close());
  const { url } = redis;

  async function twoGateways(t: ExecutionContext): Promise<[TestGateway, TestGateway]> {
    const sessionStore = {
      kind: 'redis' as const,
      url,
      sessionKeys: [randomBytes(32).toString('base64')],
      timeoutMs: 2_000,
      keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
    };
    const config = { sessionStore, trustedProxies: ['127.0.0.0/8'] };
    return Promise.all([startGateway(t, config), startGateway(t, config)]);
  }

  test("attack over two gateways: wrong passwords for admin from one address never refuse admin's right password from another", async (t) => {
    const [first, second] = await twoGateways(t);
    for (let i = 0; i < 5; i++) t.is((await first.call('POST', '/api/session', admin('203.0.113.66', 'not-the-password'))).status, 401);
    const attacker = await second.call('POST', '/api/session', admin('203.0.113.66', 'not-the-password'));
    t.is(attacker.status, 429, 'the guessing address is refused at every gateway');
    t.is(attacker.body.code, 'RATE_LIMITED');
    t.is((await second.call('POST', '/api/session', admin('198.51.100.20', PASSWORDS.admin))).status, 201);
  });

  test('over two gateways, guessing one name from many addresses delays every check of it, and the right password still gets in', async (t) => {
    const [first, second] = await twoGateways(t);
    for (const [gw, address] of [
      [first, '203.0.113.1'],
      [second, '203.0.113.2'],
    ] as const) {
      for (let i = 0; i < 5; i++) t.is((await gw.call('POST', '/api/session', admin(address, 'not-the-password'))).status, 401);
    }
    const guess = await replyAfterClockWaits(first.clock, first.call('POST', '/api/session', admin('203.0.113.3', 'not-the-password')));
    t.is(guess.reply.status, 401);
    t.is(guess.waitedMs, 1_000);
    const victim = await replyAfterClockWaits(second.clock, second.call('POST', '/api/session', admin('198.51.100.7', PASSWORDS.admin)));
    t.is(victim.reply.status, 201);
    t.is(victim.waitedMs, 2_000);
  });
}
