import test from 'ava';
import { clientAddressKey } from '../../src/transports/koa/http/client-address.js';
import { MAX_PENDING_CHALLENGES_PER_ADDRESS } from '../../src/use-cases/pending-logins.js';
import { createAuthority, createLeaf } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

// Behind a trusted proxy (the loopback peer), X-Forwarded-For names the client; every per-address
// limit keys on its IPv6 /64 (one host is usually handed a whole /64), and an IPv4-mapped IPv6
// address is the IPv4 address it maps.
const PROXY = { trustedProxies: ['127.0.0.1'] };

function wrongFrom(gw: TestGateway, address: string, user: string) {
  return gw.call('POST', '/api/session', { body: { user, password: 'not-the-password' }, headers: { 'x-forwarded-for': address } });
}

test('failed logins from two addresses of one /64 count against one limit; another /64 has its own', async (t) => {
  const gw = await startGateway(t, { ...PROXY, throttleAddressFailures: 3 });
  t.is((await wrongFrom(gw, '2001:db8:1:1::a', 'n1')).status, 401);
  t.is((await wrongFrom(gw, '2001:db8:1:1::b', 'n2')).status, 401);
  t.is((await wrongFrom(gw, '2001:db8:1:1:ffff:ffff:ffff:ffff', 'n3')).status, 401);
  const fourth = await wrongFrom(gw, '2001:db8:1:1::d', 'n4');
  t.is(fourth.status, 429, 'a fresh address of the same /64 waits');
  t.is(fourth.body.code, 'RATE_LIMITED');
  t.is((await wrongFrom(gw, '2001:db8:1:2::a', 'n5')).status, 401, 'the next /64 does not');
});

test('the request rate keys on the /64 too', async (t) => {
  const gw = await startGateway(t, { ...PROXY, rateLimit: 2 });
  t.is((await wrongFrom(gw, '2001:db8:5:5::1', 'r1')).status, 401);
  t.is((await wrongFrom(gw, '2001:db8:5:5::2', 'r2')).status, 401);
  const third = await wrongFrom(gw, '2001:db8:5:5::3', 'r3');
  t.is(third.status, 429);
  t.regex(third.body.detail, /too many requests from this address/);
  t.is((await wrongFrom(gw, '2001:db8:5:6::1', 'r4')).status, 401);
});

test('outstanding certificate challenges are capped per /64', async (t) => {
  const gw = await startGateway(t, PROXY);
  const authority = await createAuthority('prefix CA');
  const leaf = await createLeaf(authority, 'prefix-leaf');
  const headers = { Authorization: `Bearer ${await gw.login('admin')}` };
  await gw.call('POST', '/api/trust/authorities', { headers, body: { pem: authority.pem } });
  await gw.call('POST', '/api/trust/enrollments', { headers, body: { principal: 'alice', pem: leaf.pem } });
  const from = (address: string) =>
    gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem }, headers: { 'x-forwarded-for': address } });
  for (let i = 1; i <= MAX_PENDING_CHALLENGES_PER_ADDRESS; i++) t.is((await from(`2001:db8:7:7::${i.toString(16)}`)).status, 201);
  const refused = await from('2001:db8:7:7:abcd::1');
  t.is(refused.status, 429);
  t.is(refused.body.code, 'RATE_LIMITED');
  t.is((await from('2001:db8:7:8::1')).status, 201);
});

test('an IPv4-mapped IPv6 address, in either spelling, is the IPv4 address it maps', async (t) => {
  const gw = await startGateway(t, { ...PROXY, throttleAddressFailures: 2 });
  t.is((await wrongFrom(gw, '192.0.2.50', 'm1')).status, 401);
  t.is((await wrongFrom(gw, '::ffff:c000:232', 'm2')).status, 401);
  t.is((await wrongFrom(gw, '::ffff:192.0.2.50', 'm3')).status, 429);
  t.is((await wrongFrom(gw, '192.0.2.51', 'm4')).status, 401);
});

test('the prefix length is a setting: at /48 two /64s of one /48 share a limit', async (t) => {
  const gw = await startGateway(t, { ...PROXY, throttleAddressFailures: 1, ipv6PrefixLength: 48 });
  t.is((await wrongFrom(gw, '2001:db8:9:1::1', 'p1')).status, 401);
  t.is((await wrongFrom(gw, '2001:db8:9:2::1', 'p2')).status, 429);
  t.is((await wrongFrom(gw, '2001:db8:a:1::1', 'p3')).status, 401);
});

test('clientAddressKey: IPv4 as is, IPv6 by its prefix, IPv4-mapped as IPv4', (t) => {
  const cases: [string, number, string][] = [
    ['192.0.2.1', 64, '192.0.2.1'],
    ['2001:db8::1', 64, '2001:db8:0:0:0:0:0:0/64'],
    ['2001:DB8:0:0:ffff::1', 64, '2001:db8:0:0:0:0:0:0/64'],
    ['2001:db8:1:2:3:4:5:6', 56, '2001:db8:1:0:0:0:0:0/56'],
    ['2001:db8:1:2ff:3:4:5:6', 56, '2001:db8:1:200:0:0:0:0/56'],
    ['2001:db8:1:2:3:4:5:6', 128, '2001:db8:1:2:3:4:5:6/128'],
    ['fe80::1%eth0', 64, 'fe80:0:0:0:0:0:0:0/64'],
    ['::ffff:192.0.2.9', 64, '192.0.2.9'],
    ['::ffff:c000:209', 64, '192.0.2.9'],
    ['64:ff9b::192.0.2.9', 96, '64:ff9b:0:0:0:0:0:0/96'],
    ['::1', 64, '0:0:0:0:0:0:0:0/64'],
    ['unknown', 64, 'unknown'],
  ];
  for (const [address, prefix, key] of cases) t.is(clientAddressKey(address, prefix), key, address);
});
