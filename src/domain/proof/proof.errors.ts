import { KeygateError } from '../errors/keygate-error.js';

/**
 * Proof refusals (docs/spec.md §5.3, §6.3). Each carries the contract code and nothing of the
 * proof itself; a third-party failure rides along as `cause`, for logs only. The surfaces map the
 * codes to statuses (PROOF_MALFORMED 400, PROOF_REPLAY_CACHE_FULL 503, the rest 401).
 */

/** A bound session presented its credential without a `DPoP` header. */
export class ProofMissingError extends KeygateError {
  override name = 'ProofMissingError';

  constructor() {
    super('PROOF_MISSING', 'this session requires a DPoP proof on every request');
  }
}

/** Not one proof of three strict base64url segments with the required members and types. */
export class ProofMalformedError extends KeygateError {
  override name = 'ProofMalformedError';

  constructor(detail: string, cause?: unknown) {
    super('PROOF_MALFORMED', `malformed DPoP proof: ${detail}`, { cause });
  }
}

/** `alg` absent, `none`, or outside ES256/RS256; decided before any key is used. */
export class ProofAlgNotAllowedError extends KeygateError {
  override name = 'ProofAlgNotAllowedError';

  constructor() {
    super('PROOF_ALG_NOT_ALLOWED', 'DPoP proof alg must be ES256 or RS256');
  }
}

/** A well-formed `jwk` that is not the key the session is bound to. */
export class ProofKeyMismatchError extends KeygateError {
  override name = 'ProofKeyMismatchError';

  constructor() {
    super('PROOF_KEY_MISMATCH', 'DPoP proof key is not the key this session is bound to');
  }
}

/** The right key, but the signature does not verify. */
export class ProofSignatureRejectedError extends KeygateError {
  override name = 'ProofSignatureRejectedError';

  constructor(cause?: unknown) {
    super('PROOF_SIGNATURE_REJECTED', 'DPoP proof signature does not verify', { cause });
  }
}

/** The claims a proof binds to its request. */
export type BoundClaim = 'htm' | 'htu' | 'ath' | 'bth';

/** `htm`, `htu`, `ath` or `bth` does not match the request; `claim` (and the detail) says which. */
export class ProofBindingMismatchError extends KeygateError {
  override name = 'ProofBindingMismatchError';

  readonly claim: BoundClaim;

  constructor(claim: BoundClaim) {
    super('PROOF_BINDING_MISMATCH', `DPoP proof ${claim} does not match the request`);
    this.claim = claim;
  }
}

/** `iat` more than the tolerance away from the gateway's clock. */
export class ProofClockSkewError extends KeygateError {
  override name = 'ProofClockSkewError';

  constructor(toleranceSeconds: number) {
    super('PROOF_CLOCK_SKEW', `DPoP proof iat is more than ${toleranceSeconds} s from the gateway clock`);
  }
}

/** The `jti` was already used with this key within the acceptance window. */
export class ProofReplayedError extends KeygateError {
  override name = 'ProofReplayedError';

  constructor() {
    super('PROOF_REPLAYED', 'DPoP proof jti was already used');
  }
}

/**
 * The replay cache is full of live entries; the gateway refuses rather than evicting (docs/spec.md §5.4).
 * Scope `session` when only the share of the proof key, or of its principal, is full (docs/spec.md §12 item 6).
 */
export class ProofReplayCacheFullError extends KeygateError {
  override name = 'ProofReplayCacheFullError';

  constructor(
    retryAfterSeconds = 5,
    scope: 'process' | 'session' = 'process',
    detail = scope === 'process'
      ? 'the proof replay cache is full; retry shortly'
      : "this proof key's share of the replay cache is full; retry shortly",
  ) {
    super('PROOF_REPLAY_CACHE_FULL', detail, {
      retryable: true,
      scope,
      retryAfterSeconds,
    });
  }
}
