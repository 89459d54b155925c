import test from 'ava';
import { replyAfterClockWaits } from '../_support/clock-waits.js';
import { PASSWORDS, startGateway } from '../_support/gateway.js';

const wrong = (user: string) => ({ body: { user, password: 'not-the-password' } });

test('after 5 failed logins of one name, even the right password is 429 RATE_LIMITED with Retry-After, then one try per 30 s doubling', async (t) => {
  const gw = await startGateway(t);
  for (let i = 0; i < 5; i++) t.is((await gw.call('POST', '/api/session', wrong('alice'))).status, 401);
  const limited = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(limited.status, 429);
  t.is(limited.body.code, 'RATE_LIMITED');
  t.is(limited.body.retryable, true);
  t.is(limited.body.scope, 'session');
  t.is(limited.headers.get('retry-after'), '30');
  const root = await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } });
  t.is(root.status, 429);
  t.is(root.body.error, 'too many attempts');
  t.is(typeof root.body.detail, 'string');
  t.is(root.headers.get('retry-after'), '30');
  // Another name is not affected.
  t.is((await gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 200);
  gw.clock.advance(30_000);
  t.is((await gw.call('POST', '/login', wrong('alice'))).status, 401);
  const doubled = await gw.call('POST', '/login', wrong('alice'));
  t.is(doubled.status, 429);
  t.is(doubled.headers.get('retry-after'), '60');
  gw.clock.advance(60_000);
  t.is((await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } })).status, 200);
  // A success resets the name.
  for (let i = 0; i < 4; i++) t.is((await gw.call('POST', '/login', wrong('alice'))).status, 401);
  t.is((await gw.call('POST', '/login', { body: { user: 'alice', password: PASSWORDS.alice } })).status, 200);
});

test('the lock-out never grows past the window, and a quiet window forgets the failures', async (t) => {
  const gw = await startGateway(t, { throttleNameFailures: 2, throttleWindowSeconds: 100 });
  for (let i = 0; i < 2; i++) t.is((await gw.call('POST', '/login', wrong('carol'))).status, 401);
  const limited = await gw.call('POST', '/login', wrong('carol'));
  t.is(limited.headers.get('retry-after'), '30');
  gw.clock.advance(30_000);
  t.is((await gw.call('POST', '/login', wrong('carol'))).status, 401);
  t.is((await gw.call('POST', '/login', wrong('carol'))).headers.get('retry-after'), '60');
  gw.clock.advance(60_000);
  t.is((await gw.call('POST', '/login', wrong('carol'))).status, 401);
  t.is((await gw.call('POST', '/login', wrong('carol'))).headers.get('retry-after'), '100');
  gw.clock.advance(100_000);
  t.is((await gw.call('POST', '/login', { body: { user: 'carol', password: PASSWORDS.carol } })).status, 200);
});

test('at the shortest window (30 s), failures idle that long are forgotten; the default window (900 s) would keep them', async (t) => {
  const gw = await startGateway(t, { throttleNameFailures: 2, throttleWindowSeconds: 30 });
  t.is((await gw.call('POST', '/login', wrong('bob'))).status, 401);
  t.is((await gw.call('POST', '/login', wrong('bob'))).status, 401);
  t.is((await gw.call('POST', '/login', wrong('bob'))).status, 429);
  gw.clock.advance(31_000);
  // Forgotten: two more failures before the name waits again. Kept, the second would already wait 60 s,
  // the count having gone on from 2.
  t.is((await gw.call('POST', '/login', wrong('bob'))).status, 401);
  t.is((await gw.call('POST', '/login', wrong('bob'))).status, 401);
  t.is((await gw.call('POST', '/login', { body: { user: 'bob', password: PASSWORDS.bob } })).status, 429);
});

test('one address guessing across many names is throttled after 50 failures; a spoofed X-Forwarded-For does not help', async (t) => {
  const gw = await startGateway(t);
  for (let i = 0; i < 50; i++) {
    const reply = await gw.call('POST', '/login', { ...wrong(`name-${i}`), headers: { 'x-forwarded-for': `10.0.${i}.1` } });
    t.is(reply.status, 401);
  }
  const limited = await gw.call('POST', '/api/session', { ...wrong('another-name'), headers: { 'x-forwarded-for': '10.9.9.9' } });
  t.is(limited.status, 429);
  t.is(limited.body.code, 'RATE_LIMITED');
  t.truthy(limited.headers.get('retry-after'));
});

test('behind a trusted proxy the X-Forwarded-For address is the client: one client is throttled, another is not', async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.0/8'], throttleAddressFailures: 3 });
  for (let i = 0; i < 3; i++) await gw.call('POST', '/login', { ...wrong(`x-${i}`), headers: { 'x-forwarded-for': '203.0.113.7' } });
  t.is((await gw.call('POST', '/login', { ...wrong('y'), headers: { 'x-forwarded-for': '203.0.113.7' } })).status, 429);
  // A client-supplied entry before the proxy's own is not trusted: the rightmost untrusted address counts.
  t.is((await gw.call('POST', '/login', { ...wrong('y'), headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } })).status, 429);
  t.is((await gw.call('POST', '/login', { ...wrong('z'), headers: { 'x-forwarded-for': '198.51.100.2' } })).status, 401);
});

test('the opt-in request rate per address limits the unauthenticated login operations, never health or logout', async (t) => {
  const gw = await startGateway(t, { rateLimit: 2 });
  t.is((await gw.call('POST', '/login', wrong('a'))).status, 401);
  t.is((await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: 'garbage' } })).status, 400);
  const limited = await gw.call('POST', '/api/session', wrong('b'));
  t.is(limited.status, 429);
  t.is(limited.body.code, 'RATE_LIMITED');
  t.is(limited.headers.get('retry-after'), '1');
  t.is((await gw.call('POST', '/login', wrong('c'))).status, 429);
  for (let i = 0; i < 5; i++) {
    t.is((await gw.call('GET', '/health')).status, 200);
    t.is((await gw.call('POST', '/logout')).status, 401);
  }
  gw.clock.advance(1_000);
  t.is((await gw.call('POST', '/login', wrong('d'))).status, 401);
});

const admin = (address: string, password: string) => ({ body: { user: 'admin', password }, headers: { 'x-forwarded-for': address } });

test("attack: wrong passwords for admin from one address never refuse admin's right password from another address", async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.0/8'] });
  for (let i = 0; i < 5; i++) t.is((await gw.call('POST', '/api/session', admin('203.0.113.66', 'not-the-password'))).status, 401);
  const attacker = await gw.call('POST', '/api/session', admin('203.0.113.66', 'not-the-password'));
  t.is(attacker.status, 429, 'the guessing address is refused');
  t.is(attacker.body.code, 'RATE_LIMITED');
  t.is(attacker.headers.get('retry-after'), '30');
  // Even the right password is refused from the address that guessed: its guesses stay bounded.
  t.is((await gw.call('POST', '/api/session', admin('203.0.113.66', PASSWORDS.admin))).status, 429);
  const victim = await gw.call('POST', '/api/session', admin('198.51.100.20', PASSWORDS.admin));
  t.is(victim.status, 201, 'the real admin, from an address that did not fail, signs in');
  t.is((await gw.call('POST', '/login', admin('198.51.100.21', PASSWORDS.admin))).status, 200);
});

test('guessing one name from many addresses is slowed: a rising, bounded delay before each answer, and the right password still gets in', async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.0/8'] });
  // Two addresses fail five times each: twice what one address may fail before it must wait.
  for (const address of ['203.0.113.1', '203.0.113.2']) {
    for (let i = 0; i < 5; i++) t.is((await gw.call('POST', '/api/session', admin(address, 'not-the-password'))).status, 401);
  }
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const { reply, waitedMs } = await replyAfterClockWaits(
      gw.clock,
      gw.call('POST', '/api/session', admin(`203.0.113.${10 + i}`, 'not-the-password')),
    );
    t.is(reply.status, 401, 'never refused outright');
    waits.push(waitedMs);
  }
  t.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  const { reply: victim, waitedMs } = await replyAfterClockWaits(
    gw.clock,
    gw.call('POST', '/api/session', admin('198.51.100.7', PASSWORDS.admin)),
  );
  t.is(victim.status, 201);
  t.is(waitedMs, 10_000, 'the victim waits the bounded delay, no more');
  // A success forgets the name's failures: the next login is not delayed.
  const after = await replyAfterClockWaits(gw.clock, gw.call('POST', '/api/session', admin('198.51.100.8', PASSWORDS.admin)));
  t.is(after.reply.status, 201);
  t.is(after.waitedMs, 0);
});

test('one address guessing one name stays bounded even while the name is slowed for everyone', async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.0/8'] });
  for (let i = 0; i < 5; i++) t.is((await gw.call('POST', '/api/session', admin('203.0.113.5', 'not-the-password'))).status, 401);
  for (let i = 0; i < 20; i++) t.is((await gw.call('POST', '/api/session', admin('203.0.113.5', 'not-the-password'))).status, 429);
  gw.clock.advance(30_000);
  const { reply } = await replyAfterClockWaits(gw.clock, gw.call('POST', '/api/session', admin('203.0.113.5', 'not-the-password')));
  t.is(reply.status, 401, 'one more try after the wait');
  const doubled = await gw.call('POST', '/api/session', admin('203.0.113.5', 'not-the-password'));
  t.is(doubled.status, 429);
  t.is(doubled.headers.get('retry-after'), '60');
});
