import test from 'ava';
import { MAX_LOGINS_IN_FLIGHT_PER_ADDRESS, MAX_PENDING_CHALLENGES_PER_ADDRESS } from '../../src/use-cases/pending-logins.js';
import { createAuthority, createLeaf } from '../_support/certificates.js';
import { startGateway, type TestGateway } from '../_support/gateway.js';

/** The first leg answers only a certificate that chains to trust and is enrolled (issue 12 §3). */
async function trustAndEnroll(gw: TestGateway, authorityPem: string, leafPem: string): Promise<void> {
  const headers = { Authorization: `Bearer ${await gw.login('admin')}` };
  await gw.call('POST', '/api/trust/authorities', { headers, body: { pem: authorityPem } });
  await gw.call('POST', '/api/trust/enrollments', { headers, body: { principal: 'alice', pem: leafPem } });
}

test('one address cannot fill the certificate-challenge table: its outstanding challenges are capped, other addresses still get theirs', async (t) => {
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.1', '::1'] });
  const authority = await createAuthority('pending CA');
  const leaf = await createLeaf(authority, 'pending-leaf');
  await trustAndEnroll(gw, authority.pem, leaf.pem);
  const from = (address: string) => ({ body: { certificate: leaf.pem }, headers: { 'x-forwarded-for': address } });
  for (let i = 0; i < MAX_PENDING_CHALLENGES_PER_ADDRESS; i++) {
    t.is((await gw.call('POST', '/api/session/certificate/challenge', from('203.0.113.9'))).status, 201);
  }
  const refused = await gw.call('POST', '/api/session/certificate/challenge', from('203.0.113.9'));
  t.is(refused.status, 429);
  t.is(refused.body.code, 'RATE_LIMITED');
  t.truthy(refused.headers.get('retry-after'));
  t.is((await gw.call('POST', '/api/session/certificate/challenge', from('198.51.100.4'))).status, 201);
  // Challenges expire after 60 s: then the address may ask again.
  gw.clock.advance(61_000);
  t.is((await gw.call('POST', '/api/session/certificate/challenge', from('203.0.113.9'))).status, 201);
});

test('a challenge answered (or refused) no longer counts against its address', async (t) => {
  const gw = await startGateway(t);
  const authority = await createAuthority('pending CA 2');
  const leaf = await createLeaf(authority, 'pending-leaf-2');
  await trustAndEnroll(gw, authority.pem, leaf.pem);
  for (let i = 0; i < MAX_PENDING_CHALLENGES_PER_ADDRESS * 2; i++) {
    const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
    t.is(challenge.status, 201);
    const login = await gw.call('POST', '/api/session/certificate', {
      body: { challengeId: challenge.body.challengeId, signature: 'AAAA' },
    });
    t.is(login.status, 401);
  }
});

test('one address cannot hold more than a few password logins open at the key server at once', async (t) => {
  const { startEmbeddedKeyServer } = await import('../../src/app/embedded-engine.js');
  const { CryptoRandom } = await import('../../src/adapters/random/crypto-random.js');
  const { ManualClock } = await import('../../src/adapters/clock/manual-clock.js');
  const { SEED, PASSWORDS } = await import('../_support/gateway.js');
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    new ManualClock(),
    new CryptoRandom(),
  );
  // A key server that holds each login open until released, as a slow daemon exchange would.
  let release!: () => void;
  const gate = new Promise<void>((open) => (release = open));
  let entered = 0;
  let allEntered!: () => void;
  const full = new Promise<void>((done) => (allEntered = done));
  const slowLogin = async (...args: Parameters<typeof keyServer.login>) => {
    if (++entered === MAX_LOGINS_IN_FLIGHT_PER_ADDRESS) allEntered();
    await gate;
    return keyServer.login(...args);
  };
  const slow = new Proxy(keyServer, {
    get(target, name) {
      if (name === 'login') return slowLogin;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  // A name's limit above the cap: checks in flight count against the name from this address (at most
  // its limit run at once, login-throttle-concurrent.test.ts), and this test is about the address's cap.
  const gw = await startGateway(t, { throttleNameFailures: MAX_LOGINS_IN_FLIGHT_PER_ADDRESS + 2 }, { keyServer: slow });
  const body = { user: 'alice', password: PASSWORDS.alice };
  const held = Array.from({ length: MAX_LOGINS_IN_FLIGHT_PER_ADDRESS }, () => gw.call('POST', '/api/session', { body }));
  await full;
  const refused = await gw.call('POST', '/api/session', { body });
  t.is(refused.status, 429);
  t.is(refused.body.code, 'RATE_LIMITED');
  release();
  for (const reply of await Promise.all(held)) t.is(reply.status, 201);
  t.is((await gw.call('POST', '/api/session', { body })).status, 201);
});
