import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { untilKillAll } from '../_support/child-processes.js';
import { killAllGateways, spawnGateway } from '../_support/gateway-process.js';
import { scratchDir } from '../_support/scratch-dirs.js';

// One `keygate serve` for the whole file, its security settings given as a deployment gives them: in
// the environment. Each test speaks for clients of its own (X-Forwarded-For addresses and user names
// no other test uses), so the tests run side by side without sharing a limit.
test.after.always(killAllGateways);

const dir = scratchDir('keygate-security-settings-');
const seed = join(dir, 'seed.json');
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
writeFileSync(seed, JSON.stringify({ principals: USERS.map((name) => ({ name, kind: 'user', password: `${name}-pw-1` })) }));

const started = spawnGateway(untilKillAll, {
  TE_KEYSERVER_SEED: seed,
  TE_KEYSERVER_STORE: 'memory',
  TE_GATEWAY_TRUSTED_PROXIES: '127.0.0.1',
  TE_GATEWAY_THROTTLE_NAME_FAILURES: '2',
  TE_GATEWAY_THROTTLE_ADDRESS_FAILURES: '3',
  TE_GATEWAY_RATE_LIMIT: '4',
  TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL: '1',
  TE_GATEWAY_IPV6_PREFIX_LENGTH: '48',
});

/** A password login as a client at `address` (behind the trusted proxy that the loopback peer is). */
async function login(address: string, user: string, password: string): Promise<{ status: number; detail?: string; code?: string }> {
  const { url } = await started;
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ user, password }),
  });
  const body = (await response.json()) as { code?: string; detail?: string };
  return { status: response.status, ...body };
}

test('TE_GATEWAY_THROTTLE_NAME_FAILURES: a name waits at its address after 2 failures (the default is 5)', async (t) => {
  t.is((await login('198.51.100.10', 'bob', 'wrong')).status, 401);
  t.is((await login('198.51.100.10', 'bob', 'wrong')).status, 401);
  const third = await login('198.51.100.10', 'bob', 'bob-pw-1');
  t.is(third.status, 429, 'even the right password waits');
  t.is(third.code, 'RATE_LIMITED');
  t.is((await login('198.51.100.10', 'carol', 'carol-pw-1')).status, 201, 'the address itself is not locked');
});

test('TE_GATEWAY_THROTTLE_ADDRESS_FAILURES and TE_GATEWAY_TRUSTED_PROXIES: the forwarded address waits after 3 failures, another address does not', async (t) => {
  const address = '203.0.113.20';
  t.is((await login(address, 'nobody-1', 'wrong')).status, 401);
  t.is((await login(address, 'nobody-2', 'wrong')).status, 401);
  t.is((await login(address, 'nobody-3', 'wrong')).status, 401);
  const fourth = await login(address, 'dave', 'dave-pw-1');
  t.is(fourth.status, 429, 'the address waits, whatever the name');
  t.is(fourth.code, 'RATE_LIMITED');
  // Every client reaches the gateway through the same loopback proxy: only X-Forwarded-For tells them apart.
  t.is((await login('203.0.113.21', 'erin', 'erin-pw-1')).status, 201, 'another client behind the same proxy is not locked out');
});

test('TE_GATEWAY_RATE_LIMIT: more than 4 logins a second from one address are refused, another address is served', async (t) => {
  const address = '192.0.2.30';
  // Sent together: they fall in at most two one-second windows, so at most 8 of 12 pass the limit.
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(address, `rate-${i}`, 'wrong')));
  const limited = answers.filter((answer) => answer.status === 429 && /too many requests from this address/.test(answer.detail ?? ''));
  t.true(limited.length >= 4, `${limited.length} of 12 refused by the rate limit`);
  t.is((await login('192.0.2.31', 'frank', 'frank-pw-1')).status, 201);
});

test('TE_GATEWAY_MAX_SESSIONS_PER_PRINCIPAL: a second live session of one principal is refused (the default is 1000)', async (t) => {
  t.is((await login('192.0.2.40', 'grace', 'grace-pw-1')).status, 201);
  const second = await login('192.0.2.41', 'grace', 'grace-pw-1');
  t.is(second.status, 429);
  t.is(second.code, 'SESSION_LIMIT');
});

test('TE_GATEWAY_IPV6_PREFIX_LENGTH: at /48, failures from two /64s of one /48 count as one client', async (t) => {
  t.is((await login('2001:db8:aa:1::1', 'six-1', 'wrong')).status, 401);
  t.is((await login('2001:db8:aa:2::1', 'six-2', 'wrong')).status, 401);
  t.is((await login('2001:db8:aa:3::1', 'six-3', 'wrong')).status, 401);
  const fourth = await login('2001:db8:aa:4::1', 'heidi', 'heidi-pw-1');
  t.is(fourth.status, 429);
  t.is(fourth.code, 'RATE_LIMITED');
  t.is((await login('2001:db8:ab:1::1', 'ivan', 'ivan-pw-1')).status, 201, 'another /48 is another client');
});
