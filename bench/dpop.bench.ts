import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { MemoryLogger } from '../src/adapters/logger/memory-logger.js';
import { createGateway } from '../src/app/create-gateway.js';
import { DURATION_SECONDS, measure, printTable } from './support.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A browser-like P-256 key that mints a fresh ES256 proof for each GET of `htu` with `credential`. */
function browserKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const header = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk });
  const bth = createHash('sha256').update('').digest('base64url');
  return {
    jwk,
    minter(htu: string, credential: string) {
      const ath = createHash('sha256').update(credential).digest('base64url');
      return () => {
        const payload = b64({ jti: randomBytes(12).toString('base64url'), htm: 'GET', htu, iat: Math.floor(Date.now() / 1000), ath, bth });
        const signature = createSign('sha256').update(`${header}.${payload}`).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
        return `${header}.${payload}.${signature.toString('base64url')}`;
      };
    },
  };
}

/** A DPoP-bound GET /api/session beside the same request on an unbound session, same run. */
export async function benchDpop(): Promise<void> {
  const gateway = await createGateway(
    { keyServer: { kind: 'embedded', adminPassword: 'bench-admin-password' }, replayCacheSize: 2_000_000 },
    { logger: new MemoryLogger() },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${url}/api/session`, { method: 'POST', headers: json, body: JSON.stringify({ user: 'admin', password: 'bench-admin-password' }) });
  const unbound = ((await login.json()) as { sessionId: string }).sessionId;
  const ttag = ((await (await fetch(`${url}/keys`, { method: 'POST', headers: { 'X-Session': unbound } })).json()) as { ttag: string }).ttag;
  const key = browserKey();
  const scoped = await fetch(`${url}/api/session/scoped`, {
    method: 'POST',
    headers: { ...json, Authorization: `Bearer ${unbound}` },
    body: JSON.stringify({ objects: [ttag], senderKey: key.jwk, ttlSeconds: 900 }),
  });
  const bound = ((await scoped.json()) as { sessionId: string }).sessionId;
  const htu = `${url}/api/session`;
  const mint = key.minter(htu, bound);

  const plain = await measure({ name: 'GET /api/session, unbound', url: htu, headers: { Authorization: `Bearer ${unbound}` } });
  // Proofs are minted just before the run (iat stays well inside the 30 s window), so the load generator's signing does not compete with the
  // gateway for the same cores; each is used once (the replay cache would refuse a second use).
  const pool = Array.from({ length: Math.min(60_000, 4_000 * DURATION_SECONDS) }, mint);
  const proved = await measure({
    name: 'GET /api/session, DPoP-bound (ES256)',
    url: htu,
    headers: { Authorization: `Bearer ${bound}` },
    perRequestHeaders: () => ({ DPoP: pool.pop() ?? mint() }),
  });
  printTable('sender constraint: a bound request beside an unbound one', [plain, proved], plain);
  const boundUs = 1e6 / proved.requestsPerSecond;
  const proofUs = boundUs - 1e6 / plain.requestsPerSecond;
  process.stdout.write(
    `server time per request: unbound ${(1e6 / plain.requestsPerSecond).toFixed(0)} us, bound ${boundUs.toFixed(0)} us; ` +
      `the proof is ${((proofUs / boundUs) * 100).toFixed(0)}% of the bound request\n`,
  );
  await gateway.close();
}
