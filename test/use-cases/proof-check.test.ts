import test from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { MemoryReplayCache } from '../../src/adapters/replay-cache/memory-replay-cache.js';
import { KeygateError } from '../../src/domain/errors/keygate-error.js';
import { Secret } from '../../src/domain/secret/secret.js';
import type { SessionRecord } from '../../src/domain/session/session.js';
import { type PresentedRequest, ProofChecker } from '../../src/use-cases/proof-check.js';
import { buildProof, makeSigner, NOW, type ProofSigner, REQUEST } from '../_support/proof-builder.js';

const es256 = await makeSigner('ES256');
const rs256 = await makeSigner('RS256');

function session(jkt?: string): SessionRecord {
  return {
    ref: 'ref-1',
    identity: { user: 'alice', systemId: 1001, principalId: '00000000000000aa' },
    token: new Secret('token'),
    kind: jkt ? 'scoped' : 'password',
    createdAt: NOW,
    expiresAt: NOW + 300_000,
    ...(jkt ? { jkt } : {}),
  };
}

function setup(maxEntries = 100, maxEntriesPerKey = maxEntries) {
  const clock = new ManualClock(NOW);
  const cache = new MemoryReplayCache(clock, { maxEntries, maxEntriesPerKey });
  return { clock, cache, checker: new ProofChecker(clock, cache) };
}

function presented(...proofs: string[]): PresentedRequest {
  return { ...REQUEST, proofs };
}

function freshProof(signer: ProofSigner, clock: ManualClock, claims: Record<string, unknown> = {}): string {
  return buildProof(signer, REQUEST, clock.now(), { claims });
}

for (const signer of [es256, rs256]) {
  test(`${signer.alg}: accepts a valid proof on a bound session and records its jti`, async (t) => {
    const { clock, cache, checker } = setup();
    const verified = await checker.check(session(signer.jkt), presented(freshProof(signer, clock, { jti: 'jti-1' })));
    t.like(verified, { jkt: signer.jkt, jti: 'jti-1', iat: NOW / 1000, expiresAt: NOW + 30_001 });
    t.is(await cache.size(), 1);
  });

  test(`${signer.alg}: refuses the same proof sent twice as replayed`, async (t) => {
    const { clock, checker } = setup();
    const proof = freshProof(signer, clock);
    await checker.check(session(signer.jkt), presented(proof));
    clock.advance(1_000);
    await t.throwsAsync(checker.check(session(signer.jkt), presented(proof)), { instanceOf: KeygateError, code: 'PROOF_REPLAYED' });
  });
}

test('refuses a jti reused in a new proof by the same key', async (t) => {
  const { clock, checker } = setup();
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'same' })));
  clock.advance(5_000);
  await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'same' }))), { code: 'PROOF_REPLAYED' });
});

test('accepts the same jti from another bound key', async (t) => {
  const { clock, checker } = setup();
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'same' })));
  t.truthy(await checker.check(session(rs256.jkt), presented(freshProof(rs256, clock, { jti: 'same' }))));
});

test('keeps the replay entry for as long as the proof is acceptable: a replay at iat + 30 s is still refused', async (t) => {
  const { clock, checker } = setup();
  const proof = freshProof(es256, clock);
  await checker.check(session(es256.jkt), presented(proof));
  clock.advance(30_000);
  await t.throwsAsync(checker.check(session(es256.jkt), presented(proof)), { code: 'PROOF_REPLAYED' });
  clock.advance(1);
  await t.throwsAsync(checker.check(session(es256.jkt), presented(proof)), { code: 'PROOF_CLOCK_SKEW' });
});

test('a proof minted 30 s ahead is remembered until its own iat + 30 s', async (t) => {
  const { clock, checker } = setup();
  const proof = buildProof(es256, REQUEST, NOW + 30_000);
  await checker.check(session(es256.jkt), presented(proof));
  clock.advance(60_000);
  await t.throwsAsync(checker.check(session(es256.jkt), presented(proof)), { code: 'PROOF_REPLAYED' });
});

test('answers PROOF_REPLAY_CACHE_FULL, retryable for the process, when the cache is full of live entries', async (t) => {
  const { clock, cache, checker } = setup(2);
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock)));
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock)));
  const error = await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock))), { instanceOf: KeygateError });
  t.like(error, { code: 'PROOF_REPLAY_CACHE_FULL', retryable: true, scope: 'process' });
  t.true(error!.retryAfterSeconds! > 0);
  t.is(await cache.size(), 2);
});

test("answers PROOF_REPLAY_CACHE_FULL for this session only when the key's share is full; another key is served", async (t) => {
  const { clock, checker } = setup(10, 1);
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock)));
  const error = await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock))), { instanceOf: KeygateError });
  t.like(error, { code: 'PROOF_REPLAY_CACHE_FULL', retryable: true, scope: 'session' });
  t.true(error!.retryAfterSeconds! > 0);
  t.truthy(await checker.check(session(rs256.jkt), presented(freshProof(rs256, clock))));
});

test('reports a replay as replayed even when the cache is full', async (t) => {
  const { clock, checker } = setup(1);
  const proof = freshProof(es256, clock);
  await checker.check(session(es256.jkt), presented(proof));
  await t.throwsAsync(checker.check(session(es256.jkt), presented(proof)), { code: 'PROOF_REPLAYED' });
});

test('room comes back as entries expire', async (t) => {
  const { clock, checker } = setup(1);
  await checker.check(session(es256.jkt), presented(freshProof(es256, clock)));
  await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock))), { code: 'PROOF_REPLAY_CACHE_FULL' });
  clock.advance(30_001);
  t.truthy(await checker.check(session(es256.jkt), presented(freshProof(es256, clock))));
});

test('writes no replay entry for a refused proof, so its jti stays usable', async (t) => {
  const { clock, cache, checker } = setup();
  await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'j', htm: 'GET' }))), {
    code: 'PROOF_BINDING_MISMATCH',
  });
  await t.throwsAsync(checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'j', iat: NOW / 1000 - 40 }))), {
    code: 'PROOF_CLOCK_SKEW',
  });
  t.is(await cache.size(), 0);
  t.truthy(await checker.check(session(es256.jkt), presented(freshProof(es256, clock, { jti: 'j' }))));
});

test('an unbound session ignores any proof, even garbage, and records nothing', async (t) => {
  const { cache, checker } = setup();
  t.is(await checker.check(session(), presented('garbage', 'more garbage')), undefined);
  t.is(await checker.check(session(), presented()), undefined);
  t.is(await cache.size(), 0);
});

test('a bound session without a DPoP header gets PROOF_MISSING', async (t) => {
  const { checker } = setup();
  await t.throwsAsync(checker.check(session(es256.jkt), presented()), { instanceOf: KeygateError, code: 'PROOF_MISSING' });
});

test('a bound session with two DPoP headers gets PROOF_MALFORMED', async (t) => {
  const { clock, cache, checker } = setup();
  const proofs = [freshProof(es256, clock), freshProof(es256, clock)];
  await t.throwsAsync(checker.check(session(es256.jkt), presented(...proofs)), { code: 'PROOF_MALFORMED' });
  t.is(await cache.size(), 0);
});

test('a proof by a key other than the bound one is a key mismatch, and the cached key does not leak across sessions', async (t) => {
  const { clock, checker } = setup();
  t.truthy(await checker.check(session(es256.jkt), presented(freshProof(es256, clock))));
  await t.throwsAsync(checker.check(session(rs256.jkt), presented(freshProof(es256, clock))), { code: 'PROOF_KEY_MISMATCH' });
  t.truthy(await checker.check(session(es256.jkt), presented(freshProof(es256, clock))));
});
