import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { asSession, createKey, pathTtag } from '../_support/api-client.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import { startTestPostgres } from '../_support/postgres.js';
import { createDatabase } from '../_support/postgres-daemons.js';
import { testRedis } from '../_support/redis.js';
import { scratchDir } from '../_support/scratch-dirs.js';
import { skipAll } from '../_support/skip.js';

/**
 * The JWKS survives rotation (docs/spec.md §4.25 item 7): two gateways sharing one PostgreSQL (their
 * embedded key servers' store) and one Redis (sessions), a key published under an alias, and a stock
 * relying party (jose's createRemoteJWKSet) fetching gateway B's /jwks/{alias}.json. Gateway A's key
 * server signs the tokens (sign-jwt): the private key never leaves it.
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
        dataDir: scratchDir('keygate-pair-'),
      },
      sessionStore: { kind: 'redis', url: redisUrl, sessionKeys },
    });
  const a = await start();
  return [a, await start()];
}

/** A token the key server signs (POST /api/crypto/sign-jwt, docs/spec.md §4.25 item 5) with the key's newest version. */
async function issue(session: ReturnType<typeof asSession>, ttag: string, subject: string): Promise<{ jwt: string; version: number }> {
  const reply = await session.post('/api/crypto/sign-jwt', { ttag, claims: { sub: subject } });
  if (reply.status !== 200) throw new Error(`sign-jwt: ${reply.status} ${reply.text}`);
  return { jwt: reply.body.jwt, version: reply.body.version };
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
    const { ttag } = await createKey(onA, { type: 'ec-p256' });
    t.is((await onB.put('/api/aliases/tokens', { ttag })).status, 200);
    t.is((await onA.put(`/api/keys/${pathTtag(ttag)}/published`, { published: true })).status, 200);

    const relyingParty = createRemoteJWKSet(new URL(`${b.url}/jwks/tokens.json`), { cooldownDuration: 0 });
    const { jwt: first, version: signedBy } = await issue(onA, ttag, 'first');
    t.is(signedBy, 1);
    t.is((await jwtVerify(first, relyingParty)).payload.sub, 'first');

    const rotated = await onB.post(`/api/keys/${pathTtag(ttag)}/rotate`, {});
    t.is(rotated.status, 200, rotated.text);
    const { jwt: second, version: newest } = await issue(onA, ttag, 'second');
    t.is(newest, 2, 'the new version signs');
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
