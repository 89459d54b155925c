import { createDecipheriv, createECDH, createPrivateKey, createPublicKey, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { calculateJwkThumbprint, createRemoteJWKSet, type JWK, jwtVerify, SignJWT } from 'jose';
import { asSession, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { createDatabase } from '../_support/postgres-daemons.js';
import { testRedis } from '../_support/redis.js';
import { skipAll } from '../_support/skip.js';

/**
 * The JWKS survives rotation (docs/spec.md §4.25 item 7): two gateways sharing one PostgreSQL (their
 * embedded key servers' store) and one Redis (sessions), a key published under an alias, and a stock
 * relying party (jose's createRemoteJWKSet) fetching gateway B's /jwks/{alias}.json. The tokens are
 * signed here with the exported private key of each version (an exportable key; sign-jwt is another
 * part of §4.25), their `kid` the RFC 7638 thumbprint jose computes.
 */
const postgres = startTestPostgres();
const redis = await testRedis();
const reason = postgres.reason ?? ('skipped' in redis ? redis.skipped : undefined);

/** What a gateway may keep a copy of a published JWKS for (docs/spec.md §4.25 item 7). */
const JWKS_CACHE_MS = 1000;

/** Two gateways over one PostgreSQL database and one Redis, each with its own manual clock. */
async function startPair(t: ExecutionContext, redisUrl: string): Promise<[TestGateway, TestGateway]> {
  const postgresUrl = await createDatabase(postgres.url!);
  const masterKey = randomBytes(32).toString('base64');
  const sessionKeys = [randomBytes(32).toString('base64')];
  const start = () =>
    startGateway(t, {
      keyServer: {
        kind: 'embedded',
        seed: SEED,
        adminPassword: PASSWORDS.admin,
        store: 'postgres',
        postgresUrl,
        masterKey,
        dataDir: mkdtempSync(join(tmpdir(), 'keygate-pair-')),
      },
      sessionStore: { kind: 'redis', url: redisUrl, sessionKeys },
    });
  const a = await start();
  return [a, await start()];
}

/** A version's private key, exported and unwrapped by the client's side of docs/spec.md §3.2. */
async function exportVersion(session: ReturnType<typeof asSession>, ttag: string, version: number) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const reply = await session.post(`/api/keys/${pathTtag(ttag)}/export`, { clientPubKey: ecdh.getPublicKey('base64'), version });
  if (reply.status !== 200) throw new Error(`export: ${reply.status} ${reply.text}`);
  const w = reply.body.wrapped;
  const b = (value: string) => Buffer.from(value, 'base64');
  const aesKey = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(b(w.gatewayPubKey)), b(w.salt), 'keygate export v1', 32));
  const decipher = createDecipheriv('aes-256-gcm', aesKey, b(w.iv));
  decipher.setAuthTag(b(w.authTag));
  const privateKey = createPrivateKey({
    key: Buffer.concat([decipher.update(b(w.ciphertext)), decipher.final()]),
    format: 'der',
    type: 'pkcs8',
  });
  const kid = await calculateJwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' }) as JWK);
  return { privateKey, kid };
}

/** A token as an issuer signs it with one version's key. */
async function issue(session: ReturnType<typeof asSession>, ttag: string, version: number, subject: string): Promise<string> {
  const { privateKey, kid } = await exportVersion(session, ttag, version);
  return new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
}

if (reason !== undefined) {
  skipAll('the JWKS rotation over a gateway pair', reason);
} else {
  test.after.always(async () => {
    if (!('skipped' in redis)) await redis.close();
  });

  test('a relying party fetching gateway B accepts tokens of both versions across a rotation, and refuses v1 once min-version retires it', async (t) => {
    const [a, b] = await startPair(t, (redis as { url: string }).url);
    const onA = asSession(a, await a.login('alice'));
    // The session lives in the shared Redis: gateway B serves it too.
    const onB = asSession(b, onA.sessionId);
    const { ttag } = await createKey(onA, { type: 'ec-p256', exportable: true });
    t.is((await onB.put('/api/aliases/tokens', { ttag })).status, 200);
    t.is((await onA.put(`/api/keys/${pathTtag(ttag)}/published`, { published: true })).status, 200);

    const relyingParty = createRemoteJWKSet(new URL(`${b.url}/jwks/tokens.json`), { cooldownDuration: 0 });
    const first = await issue(onA, ttag, 1, 'first');
    t.is((await jwtVerify(first, relyingParty)).payload.sub, 'first');

    const rotated = await onB.post(`/api/keys/${pathTtag(ttag)}/rotate`, {});
    t.is(rotated.status, 200, rotated.text);
    const second = await issue(onA, ttag, 2, 'second');
    b.clock.advance(JWKS_CACHE_MS); // B's copy of the key set is at most a second old
    t.is((await jwtVerify(second, relyingParty)).payload.sub, 'second', 'the new kid is fetched again from B');
    t.is((await jwtVerify(first, relyingParty)).payload.sub, 'first', 'v1 stays in the key set until retired');
    const served = await b.call('GET', '/jwks/tokens.json');
    t.is(served.body.keys.length, 2);

    t.is((await onA.put(`/api/keys/${pathTtag(ttag)}/min-version`, { minVersion: 2 })).status, 200);
    b.clock.advance(JWKS_CACHE_MS);
    const afterRetirement = createRemoteJWKSet(new URL(`${b.url}/jwks/tokens.json`), { cooldownDuration: 0 });
    t.is((await jwtVerify(second, afterRetirement)).payload.sub, 'second');
    const refused = await t.throwsAsync(jwtVerify(first, afterRetirement));
    t.is((refused as Error & { code?: string }).code, 'ERR_JWKS_NO_MATCHING_KEY');
    t.is((await b.call('GET', '/jwks/tokens.json')).body.keys.length, 1);
  });
}
