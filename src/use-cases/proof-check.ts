import { ProofMissingError, ProofReplayCacheFullError, ProofReplayedError } from '../domain/proof/proof.errors.js';
import type { ProofRequest, VerifiedProof } from '../domain/proof/proof.js';
import { verifyProof } from '../domain/proof/verify-proof.js';
import type { SessionRecord } from '../domain/session/session.js';
import type { Clock } from '../ports/clock.port.js';
import type { ReplayCache } from '../ports/replay-cache.port.js';
import { LruProofKeyCache } from './proof-key-cache.js';

/** A request as the proof check sees it: its facts plus every `DPoP` header value received. */
export interface PresentedRequest extends ProofRequest {
  /** All `DPoP` header values, as received (Node: `req.headersDistinct.dpop ?? []`); empty when none. */
  readonly proofs: readonly string[];
}

export interface ProofCheckerOptions {
  /** Imported proof keys kept, by thumbprint (default 1 000). */
  readonly keyCacheEntries?: number;
}

/**
 * The sender constraint of a session (docs/spec.md §5.1): the constraint belongs to the session, not the
 * route, so every request of a bound session passes here before anything else is decided
 * (docs/spec.md §5.1: the proof is checked before authorization).
 */
export class ProofChecker {
  readonly #clock: Clock;
  readonly #replayCache: ReplayCache;
  readonly #keyCache: LruProofKeyCache;

  constructor(clock: Clock, replayCache: ReplayCache, options: ProofCheckerOptions = {}) {
    this.#clock = clock;
    this.#replayCache = replayCache;
    this.#keyCache = new LruProofKeyCache(options.keyCacheEntries);
  }

  /**
   * Checks the request's proof against the session. An unbound session ignores any proof (docs/spec.md §5.1)
   * and gets undefined. A bound one needs exactly one valid proof (`verifyProof`), whose `jti`
   * is then recorded under the session's `jkt` until the proof could no longer be accepted; the
   * entry is written only after every other check passed (docs/spec.md §5.4).
   *
   * @throws PROOF_MISSING, any refusal of `verifyProof`, PROOF_REPLAYED, PROOF_REPLAY_CACHE_FULL
   *   (retryable, scope `process`; scope `session` when only the key's or the principal's share is
   *   full), or whatever the replay cache throws when it cannot be reached
   */
  async check(session: SessionRecord, request: PresentedRequest): Promise<VerifiedProof | undefined> {
    const { jkt } = session;
    if (jkt === undefined) return undefined;
    if (request.proofs.length === 0) throw new ProofMissingError();
    // Named field by field: a rest copy then a spread with `jkt` is V8's slow path in Node 20.
    const expected = { method: request.method, htu: request.htu, credential: request.credential, body: request.body, jkt };
    const proof = await verifyProof(request.proofs, expected, this.#clock.now(), { keyCache: this.#keyCache });
    // Counted against the session's principal too: its scoped sessions each bring a key of their own.
    const verdict = await this.#replayCache.remember(proof.jkt, proof.jti, proof.expiresAt, session.identity.principalId);
    if (verdict === 'replayed') throw new ProofReplayedError();
    if (verdict === 'full') throw new ProofReplayCacheFullError();
    // docs/spec.md §12 item 6: only this key is over its share; every other key is still served.
    if (verdict === 'key-full') throw new ProofReplayCacheFullError(undefined, 'session');
    // Only this principal is over its share; every other principal is still served.
    if (verdict === 'principal-full')
      throw new ProofReplayCacheFullError(undefined, 'session', "this principal's share of the replay cache is full; retry shortly");
    return proof;
  }
}
