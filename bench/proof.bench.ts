import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { ProofExpectations, ProofKeyCache } from '../src/domain/proof/proof.js';
import { verifyProof } from '../src/domain/proof/verify-proof.js';
import { LruProofKeyCache } from '../src/use-cases/proof-key-cache.js';
import { ProofChecker } from '../src/use-cases/proof-check.js';
import { MemoryReplayCache } from '../src/adapters/replay-cache/memory-replay-cache.js';
import type { SessionRecord } from '../src/domain/session/session.js';

/** Seconds per proof measurement; `KEYGATE_BENCH_PROOF_SECONDS` changes it (bounded to 0.2..30). */
const SECONDS = Math.min(30, Math.max(0.2, Number(process.env.KEYGATE_BENCH_PROOF_SECONDS ?? 2)));
const DISTINCT_PROOFS = 256;
const NOW = Date.UTC(2026, 0, 1, 12);

interface ProofRow {
  readonly name: string;
  readonly perSecond: number;
  readonly meanMicros: number;
  readonly runs: number;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64url');

interface ProvedRequest {
  readonly method: string;
  readonly htu: string;
  readonly credential: string;
  readonly body: Uint8Array;
}

/** A POST with a body, as the proof benches below check it. */
const ENCRYPT_REQUEST: ProvedRequest = {
  method: 'POST',
  htu: 'https://gateway.example/api/crypto/encrypt',
  credential: randomBytes(32).toString('base64url'),
  body: randomBytes(256),
};

/** `count` distinct valid proofs (fresh `jti`s) of one fresh key for `request`, and what they are checked against. */
async function proofsFor(
  alg: 'ES256' | 'RS256',
  request: ProvedRequest = ENCRYPT_REQUEST,
  count = DISTINCT_PROOFS,
  nowMs = NOW,
): Promise<{ proofs: string[]; expected: ProofExpectations }> {
  const { privateKey, publicKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const signingKey: KeyObject | { key: KeyObject; dsaEncoding: 'ieee-p1363' } = alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey;
  const bound = { htm: request.method, htu: request.htu, iat: Math.floor(nowMs / 1000), ath: sha256(request.credential), bth: sha256(request.body) };
  const header = b64({ typ: 'dpop+jwt', alg, jwk });
  const proofs = Array.from({ length: count }, () => {
    const input = `${header}.${b64({ jti: randomBytes(16).toString('base64url'), ...bound })}`;
    return `${input}.${sign('sha256', Buffer.from(input), signingKey).toString('base64url')}`;
  });
  return { proofs, expected: { ...request, jkt: await calculateJwkThumbprint(jwk as Record<string, string>) } };
}

/** Verifies proofs one after another for `SECONDS`, on this thread only. */
async function measureProofs(name: string, alg: 'ES256' | 'RS256', keyCache?: ProofKeyCache): Promise<ProofRow> {
  const { proofs, expected } = await proofsFor(alg);
  const options = keyCache ? { keyCache } : {};
  for (const proof of proofs.slice(0, 32)) await verifyProof([proof], expected, NOW, options);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let runs = 0;
  while (performance.now() < deadline) {
    await verifyProof([proofs[runs % DISTINCT_PROOFS]!], expected, NOW, options);
    runs++;
  }
  const elapsedMs = performance.now() - started;
  return { name, perSecond: (runs * 1000) / elapsedMs, meanMicros: (elapsedMs * 1000) / runs, runs };
}

/** `verifyProof` throughput in-process, with and without the key cache, for both algorithms. */
export async function benchProofVerification(): Promise<ProofRow[]> {
  const rows = [
    await measureProofs('verifyProof ES256 (key cached)', 'ES256', new LruProofKeyCache()),
    await measureProofs('verifyProof ES256 (key imported each time)', 'ES256'),
    await measureProofs('verifyProof RS256 (key cached)', 'RS256', new LruProofKeyCache()),
    await measureProofs('verifyProof RS256 (key imported each time)', 'RS256'),
  ];
  process.stdout.write(`\nproof verification, one thread, ${SECONDS}s each\n`);
  process.stdout.write(`${'target'.padEnd(44)}${'proofs/s'.padStart(10)}${'mean us'.padStart(9)}${'runs'.padStart(9)}\n`);
  for (const { name, perSecond, meanMicros, runs } of rows) {
    process.stdout.write(`${name.padEnd(44)}${perSecond.toFixed(0).padStart(10)}${meanMicros.toFixed(1).padStart(9)}${String(runs).padStart(9)}\n`);
  }
  return rows;
}

/**
 * One proof check as a bound session's request gets it (`ProofChecker.check`: parse, cached key,
 * verify, bindings, iat, replay cache), timed in this process over fresh proofs of one key for a GET
 * with no body, as the DPoP-bound row sends them. Microseconds per check.
 */
export async function proofCheckMicros(seconds = 1): Promise<number> {
  const now = Date.now();
  const request = { method: 'GET', htu: 'http://127.0.0.1:8080/api/session', credential: randomBytes(32).toString('base64url'), body: new Uint8Array(0) };
  const { proofs, expected } = await proofsFor('ES256', request, Math.ceil(seconds * 20_000), now);
  const clock = { now: () => now };
  const checker = new ProofChecker(clock, new MemoryReplayCache(clock, { maxEntries: proofs.length + 1 }));
  const session = { jkt: expected.jkt } as SessionRecord;
  const check = (proof: string) => checker.check(session, { ...request, proofs: [proof] });
  const warm = 200;
  for (const proof of proofs.slice(0, warm)) await check(proof);
  const started = performance.now();
  let runs = 0;
  for (const proof of proofs.slice(warm)) {
    await check(proof);
    runs++;
    if (performance.now() - started > seconds * 1000) break;
  }
  return ((performance.now() - started) * 1000) / runs;
}
