import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { MAX_PENDING_CHALLENGES_PER_ADDRESS } from '../../src/use-cases/pending-logins.js';
import {
  bundle,
  createAuthority,
  createIntermediate,
  createLeaf,
  rsaKeyPair,
  signChallenge,
  type TestCertificate,
} from '../_support/certificates.js';
import { PASSWORDS, SEED, startGateway } from '../_support/gateway.js';

// The first leg of a certificate login is unauthenticated: what one request may make the key server
// do is bounded before any path is built (bundle size, certificate count, key types and sizes), and
// each request is counted against its address before the path check runs.

const bearer = (id: string) => ({ Authorization: `Bearer ${id}` });

/** A gateway over an embedded key server whose certificate challenges are counted (and, when asked, held). */
async function countingGateway(t: ExecutionContext, config: Record<string, unknown> = {}, hold?: Promise<void>) {
  const { startEmbeddedKeyServer } = await import('../../src/app/embedded-engine.js');
  const { CryptoRandom } = await import('../../src/adapters/random/crypto-random.js');
  const { ManualClock } = await import('../../src/adapters/clock/manual-clock.js');
  const { keyServer } = await startEmbeddedKeyServer(
    { kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin },
    new ManualClock(),
    new CryptoRandom(),
  );
  const counter = { calls: 0 };
  const counted = async (...args: Parameters<typeof keyServer.certificateChallenge>) => {
    counter.calls += 1;
    if (hold !== undefined) await hold;
    return keyServer.certificateChallenge(...args);
  };
  const proxy = new Proxy(keyServer, {
    get(target, name) {
      if (name === 'certificateChallenge') return counted;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const gw = await startGateway(t, { trustedProxies: ['127.0.0.1', '::1'], ...config }, { keyServer: proxy });
  return { gw, counter };
}

async function trusted(t: ExecutionContext) {
  const gw = await startGateway(t);
  const admin = await gw.login('admin');
  const root = await createAuthority('bounded root', { pathLength: 6 });
  const add = await gw.call('POST', '/api/trust/authorities', { headers: bearer(admin), body: { pem: root.pem } });
  if (add.status !== 201) throw new Error(`trust: ${add.status} ${add.text}`);
  return { gw, admin, root };
}

test('attack: seven fake intermediates with huge RSA exponents -> 400 CERTIFICATE_MALFORMED before any path is built', async (t) => {
  const { gw, root } = await trusted(t);
  const leaf = await createLeaf(root, 'heavy');
  const huge = rsaKeyPair(2048, 0xffff_ffff).publicKey;
  const fakes: TestCertificate[] = [];
  for (let index = 0; index < 7; index += 1) fakes.push(await createIntermediate(root, `fake ${index}`, { publicKey: huge }));
  const many = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: bundle(leaf, ...fakes) } });
  t.is(many.status, 400);
  t.is(many.body.code, 'CERTIFICATE_MALFORMED');
  t.regex(many.body.detail ?? many.text, /at most 5 certificates/);
  const one = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: bundle(leaf, fakes[0]!) } });
  t.is(one.status, 400, 'one intermediate with an exponent other than 65537');
  t.is(one.body.code, 'CERTIFICATE_MALFORMED');
  t.regex(one.body.detail ?? one.text, /exponent/);
});

test('attack: leaves with keys outside RSA 2048-4096 (e = 65537) and EC P-256/P-384 are refused with 400; the accepted kinds still pass', async (t) => {
  const { gw, admin, root } = await trusted(t);
  const refused: Array<[string, { publicKey: import('node:crypto').KeyObject; privateKey: import('node:crypto').KeyObject }]> = [
    ['RSA-1024', rsaKeyPair(1024)],
    ['RSA-2048 with e = 3', rsaKeyPair(2048, 3)],
    ['Ed25519', generateKeyPairSync('ed25519')],
    ['EC P-521', generateKeyPairSync('ec', { namedCurve: 'P-521' })],
  ];
  for (const [kind, keyPair] of refused) {
    const leaf = await createLeaf(root, 'odd-key', { keyPair });
    const reply = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: leaf.pem } });
    t.is(reply.status, 400, kind);
    t.is(reply.body.code, 'CERTIFICATE_MALFORMED', kind);
  }
  const p384 = await createLeaf(root, 'p384', { keyPair: generateKeyPairSync('ec', { namedCurve: 'P-384' }) });
  const verdict = await gw.call('POST', '/api/certificates/verify', { headers: bearer(admin), body: { pem: p384.pem } });
  t.is(verdict.body.trusted, true, 'a P-384 certificate is within the limits');
  const rsa = await createLeaf(root, 'rsa-4096', { keyPair: rsaKeyPair(4096) });
  await gw.call('PUT', '/api/policy/provisioning/autoProvision', { headers: bearer(admin), body: { value: true } });
  const challenge = await gw.call('POST', '/api/session/certificate/challenge', { body: { certificate: rsa.pem } });
  t.is(challenge.status, 201);
  const login = await gw.call('POST', '/api/session/certificate', {
    body: { challengeId: challenge.body.challengeId, signature: signChallenge(rsa, challenge.body.challenge) },
  });
  t.is(login.status, 201);
});

test('attack: a flood of refused challenges from one address stops reaching the key server (429 RATE_LIMITED)', async (t) => {
  const { gw, counter } = await countingGateway(t, { throttleAddressFailures: 3 });
  const stranger = await createLeaf(await createAuthority('stranger CA'), 'stranger');
  const from = (address: string) => ({ body: { certificate: stranger.pem }, headers: { 'x-forwarded-for': address } });
  const statuses: number[] = [];
  for (let index = 0; index < 10; index += 1)
    statuses.push((await gw.call('POST', '/api/session/certificate/challenge', from('203.0.113.7'))).status);
  t.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
  t.true(
    statuses.slice(3).every((status) => status === 429),
    `then refused: ${statuses.join(',')}`,
  );
  t.is(counter.calls, 3, 'only the first three reached the key server');
  t.is((await gw.call('POST', '/api/session/certificate/challenge', from('198.51.100.8'))).status, 401, 'another address is not affected');
});

test('attack: challenges being checked count against the address before the key server answers', async (t) => {
  let release!: () => void;
  const hold = new Promise<void>((open) => (release = open));
  const { gw, counter } = await countingGateway(t, {}, hold);
  const authority = await createAuthority('slow CA');
  const leaf = await createLeaf(authority, 'slow');
  const body = { body: { certificate: leaf.pem }, headers: { 'x-forwarded-for': '203.0.113.20' } };
  const held = Array.from({ length: MAX_PENDING_CHALLENGES_PER_ADDRESS }, () =>
    gw.call('POST', '/api/session/certificate/challenge', body),
  );
  while (counter.calls < MAX_PENDING_CHALLENGES_PER_ADDRESS) await new Promise((resolve) => setImmediate(resolve));
  const refused = await gw.call('POST', '/api/session/certificate/challenge', body);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'RATE_LIMITED');
  t.is(counter.calls, MAX_PENDING_CHALLENGES_PER_ADDRESS, 'the refused request never reached the key server');
  release();
  for (const reply of await Promise.all(held)) t.is(reply.status, 401, 'untrusted: refused by the key server');
});
