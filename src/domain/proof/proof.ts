import type { KeyObject } from 'node:crypto';
/**
 * The sender-constraint proof (docs/spec.md §5.2, §5.3): what a proof is checked against, and what a verified proof
 * leaves for the replay cache.
 */

/** Signature algorithms a proof may use (docs/spec.md §5.3 step 3), compared case-sensitively. */
export const PROOF_ALGORITHMS = ['ES256', 'RS256'] as const;
export type ProofAlgorithm = (typeof PROOF_ALGORITHMS)[number];

/** The `typ` header a proof must carry, exactly (RFC 9449 §4.2, §4.3 step 4). */
export const PROOF_TYP = 'dpop+jwt';

/** `iat` is accepted this many seconds either side of the gateway's clock (docs/spec.md §5.2). */
export const PROOF_IAT_TOLERANCE_SECONDS = 30;

/** Longest `jti` accepted, in characters (docs/spec.md §5.2); bounds each replay-cache entry. */
export const PROOF_JTI_MAX_LENGTH = 256;

/** Smallest RSA modulus a proof key may have (docs/spec.md §5.3 step 4: RSA >= 2048 bit). */
export const PROOF_RSA_MIN_BITS = 2048;

/**
 * The facts of one HTTP request that a proof is bound to (RFC 9449 §4.3 steps 9-12, plus `bth`).
 * The transport gathers them; none of them is ever logged or echoed.
 */
export interface ProofRequest {
  /** The request method as received (`htm` is compared exactly). */
  readonly method: string;
  /**
   * The expected `htu`: scheme, host and path of the request, built by the caller from
   * `TE_GATEWAY_PUBLIC_ORIGIN` when set, otherwise from the connection's scheme and `Host` (never from
   * `X-Forwarded-*`). Query and fragment, if present, are ignored.
   */
  readonly htu: string;
  /** The exact credential string presented (the bearer value, or the `X-Session` value): `ath`. */
  readonly credential: string;
  /** The exact request body bytes as received; undefined or empty when there is no body: `bth`. */
  readonly body?: Uint8Array | undefined;
}

/** A request's facts plus the thumbprint of the key the session is bound to. */
export interface ProofExpectations extends ProofRequest {
  /** RFC 7638 thumbprint (SHA-256, base64url) the proof's `jwk` must have. */
  readonly jkt: string;
}

/** A proof that passed every check but the replay check, and what the replay cache must record. */
export interface VerifiedProof {
  readonly jkt: string;
  readonly jti: string;
  /** Seconds since the epoch, as claimed. */
  readonly iat: number;
  /**
   * Milliseconds since the epoch: the first instant at which this proof is no longer acceptable
   * (`iat` + 30 s, plus one millisecond). The replay entry must live at least until then.
   */
  readonly expiresAt: number;
}

/**
 * What a header segment that passed every header check decodes to: the header, its `alg`, its key
 * reduced to the imported members, the key's RFC 7638 thumbprint and the imported key itself.
 */
export interface ProofKeyEntry {
  readonly header: Readonly<Record<string, unknown>>;
  readonly jwk: Readonly<Record<string, unknown>>;
  readonly alg: ProofAlgorithm;
  readonly thumbprint: string;
  readonly key: KeyObject;
}

/**
 * Proof keys already imported and thumbprinted, by the header segment exactly as sent, which carries
 * the `jwk` member (the proof is per request, the key is per session). Equal segments
 * decode to equal headers, so one name never stands for two keys. Only keys that matched a session's
 * `jkt` are put; implementations bound their size.
 */
export interface ProofKeyCache {
  get(headerSegment: string): ProofKeyEntry | undefined;
  set(headerSegment: string, entry: ProofKeyEntry): void;
}

export interface VerifyProofOptions {
  /** Reuses keys imported for earlier proofs of the same session key. */
  readonly keyCache?: ProofKeyCache;
}
