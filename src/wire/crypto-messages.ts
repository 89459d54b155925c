import type { EncryptionContext } from './encryption-context.js';
import type { KeyLength } from './key-length.js';
import type { KeyType, SigningAlg } from './key-type.js';

/** The AES-GCM algorithm of a data key's length (RFC 7518 §5.3 names). */
export type GcmAlg = 'A128GCM' | 'A192GCM' | 'A256GCM';
/** The MAC algorithm of every data key: HMAC-SHA256 (RFC 7518 §3.2). */
export const MAC_ALG = 'HS256';

/**
 * Operation 9. Every binary value is bytes: base64 is how JSON carries them (the HTTP surfaces, the
 * daemon's protocol), encoded and decoded at those edges only.
 */
export interface EncryptRequest {
  readonly plaintext: Uint8Array;
  readonly aad?: Uint8Array | undefined;
  /** Bound with `aad` (docs/spec.md §4.5b item 3); none and `{}` are the same. */
  readonly context?: EncryptionContext | undefined;
}

export interface EncryptResult {
  readonly ciphertext: Uint8Array;
  readonly iv: Uint8Array;
  readonly authTag: Uint8Array;
  readonly alg: GcmAlg;
  /** The key version that encrypted (always the newest). */
  readonly version: number;
}

/** Operation 10. */
export interface DecryptRequest {
  readonly ciphertext: Uint8Array;
  readonly iv: Uint8Array;
  readonly authTag: Uint8Array;
  readonly aad?: Uint8Array | undefined;
  /** The key version that encrypted; 1 when absent, so ciphertexts made before key versions still open. */
  readonly version?: number | undefined;
  /** The context the ciphertext was made with (docs/spec.md §4.5b item 3); a rewrap seals again under it. */
  readonly context?: EncryptionContext | undefined;
}

/** Operation 10's answer: the plaintext, a fresh array its receiver zeroes once it has used it. */
export interface DecryptResult {
  readonly plaintext: Uint8Array;
}

/** Operation 11. */
export interface MacResult {
  readonly mac: Uint8Array;
  readonly alg: typeof MAC_ALG;
  /** The key version that made the MAC (always the newest). */
  readonly version: number;
}

/** Operation 12: a MAC to check. */
export interface VerifyMacRequest {
  readonly data: Uint8Array;
  readonly mac: Uint8Array;
  /** The key version that made the MAC; 1 when absent. */
  readonly version?: number | undefined;
}

/**
 * A signature to make (docs/spec.md §4.25 item 3): exactly one of `message` (hashed by the algorithm)
 * and `digest` (the hash already taken; ECDSA and RSA only), with the newest version.
 */
export interface SignRequest {
  readonly alg: SigningAlg;
  readonly message?: Uint8Array | undefined;
  readonly digest?: Uint8Array | undefined;
}

/** A signature made, by the version and `kid` named; `type` the key's, for the record (docs/spec.md §4.25 item 8). */
export interface SignResult {
  readonly signature: Uint8Array;
  readonly alg: SigningAlg;
  readonly version: number;
  readonly kid: string;
  readonly type: KeyType;
}

/** A signature to check (docs/spec.md §4.25 item 4): by one version (`version` or `kid`), or by any not retired. */
export interface VerifySignatureRequest extends SignRequest {
  readonly signature: Uint8Array;
  readonly version?: number | undefined;
  readonly kid?: string | undefined;
}

/** Whether it verified, and when it did, by which version and `kid`. */
export interface VerifySignatureResult {
  readonly valid: boolean;
  readonly version?: number;
  readonly kid?: string;
  readonly type: KeyType;
}

/** A data key to make (docs/spec.md §4.5a item 1): its length, and the client key to wrap it to when given. */
export interface DataKeyRequest {
  readonly keyLen: KeyLength;
  readonly clientPubKey?: Uint8Array | undefined;
  /** Bound in the blob (docs/spec.md §4.5a item 5): opening needs the same one. */
  readonly context?: EncryptionContext | undefined;
}

/** A data key's blob to open and wrap again to the client's key (docs/spec.md §4.5a item 2). */
export interface OpenDataKeyRequest {
  readonly blob: Uint8Array;
  readonly clientPubKey: Uint8Array;
  /** The context the blob was made with (docs/spec.md §4.5b item 3). */
  readonly context?: EncryptionContext | undefined;
}

/** The cryptographic operations a batch may carry, one operation per batch. */
export type BatchOperation = 'encrypt' | 'decrypt' | 'mac' | 'verify' | 'rewrap' | 'sign' | 'sign.verify' | 'datakey' | 'datakey.open';

/**
 * One item of a batch: the key and the operation's request (`{ data }` for `mac`; a decrypt request for
 * `rewrap`). Each item is checked and performed on its own.
 */
export type BatchItem = { readonly ttag: string } & (
  | EncryptRequest
  | DecryptRequest
  | { readonly data: Uint8Array }
  | VerifyMacRequest
  | SignRequest
  | VerifySignatureRequest
  | DataKeyRequest
  | OpenDataKeyRequest
);

/**
 * One item's outcome, in the order of the items: its result, or its error's code and detail; `resolved`
 * the ttag its `alias/<name>` named, when it named its key by alias (docs/spec.md §4.23 item 3).
 */
export type BatchOutcome<T = unknown> = (
  | { readonly ok: true; readonly result: T }
  | { readonly ok: false; readonly code: string; readonly message: string }
) & { readonly resolved?: string };

/** The most items one batch may carry. */
export const MAX_BATCH_ITEMS = 1000;

/**
 * An `Idempotency-Key` claim (draft-ietf-httpapi-idempotency-key-header): the key the client sent and
 * the fingerprint of its request (base64url SHA-256 of `METHOD path\n` and the canonical JSON body). The
 * key server answers a replay with the same fingerprint from its record, for 24 hours.
 */
export interface IdempotencyClaim {
  readonly key: string;
  readonly fingerprint: string;
}
