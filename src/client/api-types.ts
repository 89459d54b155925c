/**
 * The /api views the client reads (docs/spec.md §4.4-§4.16), as the gateway answers them. Times are ISO 8601
 * strings; binary values and ttags are standard base64.
 */

import type { components, paths } from './openapi-types.js';

/** The views of the document (`components.schemas`), by their OpenAPI names. */
type Schemas = components['schemas'];

/** The JSON body a 200 of `method` on `path` answers, as the document states it. */
type Answer<Path extends keyof paths, Method extends 'get' | 'post' | 'put'> = paths[Path][Method] extends {
  readonly responses: { readonly 200: { content: { readonly 'application/json': infer Body } } };
}
  ? Body
  : never;

/** Session view; `sessionId` appears only when a session is minted. */
export type SessionView = Schemas['Session'];
export type Right = NonNullable<SessionView['rights']>[number];

/** Key view (docs/spec.md §4.6): never key material. */
export type KeyView = Schemas['Key'];
/** One version of a key; `retired` below the key's `minVersion` (docs/spec.md §4.22). */
export type KeyVersionView = Schemas['KeyVersion'];
/** An alias (docs/spec.md §4.23 item 3): a name for one key, `alias/<name>` wherever a ttag is taken. */
export type AliasView = Schemas['Alias'];
/** A key as the key list shows it: the key view without its versions (docs/spec.md §4.23 item 1). */
export type KeySummary = Schemas['KeySummary'];

/** The filters and page of the key list (docs/spec.md §4.23 item 1): every filter given must match. */
export interface KeyListQuery {
  /** A label prefix (case-sensitive). */
  readonly q?: string;
  /** `name:value` or `name`, up to 10, every one must match. */
  readonly tag?: readonly string[];
  readonly state?: KeyView['state'];
  /** The owner's principal name. */
  readonly owner?: string;
  /** ISO 8601 instants with offset: created strictly after, strictly before. */
  readonly createdAfter?: string;
  readonly createdBefore?: string;
  readonly limit?: number;
  readonly cursor?: string;
}
export type KeyLength = KeyView['keyLen'];
export type Identity = KeyView['owner'];

/** A trusted issuer of workload identity tokens (docs/spec.md §4.24 item 1). */
export type TrustedIssuerView = Schemas['TrustedIssuer'];
/** What `PUT /api/trust/issuers/{name}` takes: the issuer without its name, defaults left out. */
export type TrustedIssuerSettings = Omit<
  TrustedIssuerView,
  'name' | 'createPrincipals' | 'roles' | 'boundClaims' | 'requireJti' | 'leeway'
> &
  Partial<Pick<TrustedIssuerView, 'createPrincipals' | 'roles' | 'boundClaims' | 'requireJti' | 'leeway'>>;

/** One live session of the caller's principal, by a non-secret reference. */
export type SessionListItem = Answer<'/api/sessions', 'get'>['items'][number];

export interface ListView<T> {
  readonly items: readonly T[];
  readonly complete: boolean;
  readonly reason?: string;
  readonly next?: string;
}

/** A key's type (docs/spec.md §4.25 item 1): `aes`, or a signing key's. */
export type KeyType = KeyView['type'];
/** A signing algorithm by its JOSE name (docs/spec.md §4.25 item 2). */
export type SigningAlg = NonNullable<KeyView['alg']>;

export interface NewKeyRequest {
  /** `aes` (the default) or a signing key type (docs/spec.md §4.25 item 1). */
  readonly type?: KeyType;
  /** An aes key's length in bytes; not with a signing type. */
  readonly keyLen?: KeyLength;
  /** A signing key's algorithm, one its type fits (the type's default when not given). */
  readonly alg?: SigningAlg;
  /** A signing key's: whether its private key may ever be exported (default false). */
  readonly exportable?: boolean;
  /** A signing key's: the longest lifetime of a JWT it signs, seconds (60..2592000, default 3600). */
  readonly jwtMaxLifetime?: number;
  readonly label?: string;
  readonly expiresAt?: string | Date;
  /** An ISO 8601 duration of at least one day: weeks, days, hours, minutes, seconds (`P90D`, `PT36H`). */
  readonly rotationPeriod?: string;
}

/**
 * An `Idempotency-Key` (1..255 visible ASCII characters) for a create or a rotate: a retry with the
 * same key and request within 24 hours answers the first result and creates nothing (docs/spec.md §4.22 item 7).
 */
export interface Retryable {
  readonly idempotencyKey?: string;
}

/** One batch item's answer, in the order of the items (docs/spec.md §4.22 item 8). */
export type BatchItemResult<T> =
  | ({ readonly ok: true } & T)
  | { readonly ok: false; readonly error: { readonly code: string; readonly detail: string } };

/** An exported key, opened on the client: the raw data key and the export's labels. */
export interface ExportedKey {
  readonly key: Uint8Array<ArrayBuffer>;
  readonly keyLen: KeyLength;
  /** The fixed label of docs/spec.md §3.3 (`aes-128-cbc`), not derived from the key. */
  readonly algo: string;
  /** The version exported. */
  readonly version?: number;
}

/** AES-GCM output of POST /api/crypto/encrypt, standard base64, as decrypt takes it back. */
export interface Sealed {
  readonly ciphertext: string;
  readonly iv: string;
  readonly authTag: string;
  readonly alg?: 'A128GCM' | 'A192GCM' | 'A256GCM';
  /** The key version it was made under; decrypt sends it back (absent: version 1). */
  readonly version?: number;
  /**
   * The same ciphertext as one string naming its version (docs/spec.md §4.5 "Sealed text"):
   * `kg:v<version>:<base64 of iv, ciphertext, tag>`. Decrypt and rewrap send it instead of the fields.
   */
  readonly sealed?: string;
}

/** The answer of a single MAC (not a batch). */
export type MacView = Extract<Answer<'/api/crypto/mac', 'post'>, { readonly mac: string }>;

export type AclView = Answer<'/api/keys/{ttag}/acl', 'get'>;

/**
 * What an ACL entry may require before it gives its rights (docs/spec.md §4.5b item 4): a request's
 * encryption context holding every member of `context` (1..16 members).
 */
export interface GrantConditions {
  readonly context: Readonly<Record<string, string>>;
}

export interface AclEntry {
  readonly principal: string;
  readonly rights: readonly Right[];
  /** Only on an entry that has them. */
  readonly conditions?: GrantConditions;
}

/** The caller's access to a key: `rights` held with no condition, `conditional` its conditioned entries (docs/spec.md §4.5b item 4). */
export type AccessView = Answer<'/api/keys/{ttag}/access', 'get'>;

export type HealthView = Schemas['Health'];

/** Bytes, or text sent as its UTF-8 bytes. */
export type Data = Uint8Array | string;

/**
 * What sign and verify take (docs/spec.md §4.25 items 3, 4): `alg`, one its key's type fits, and either
 * the message (hashed by the algorithm; text is sent as its UTF-8 bytes) or the digest already taken
 * (ECDSA and RSA only), never both.
 */
export type SignInput = { readonly alg: SigningAlg } & (
  | { readonly message: Data; readonly digest?: never }
  | { readonly digest: Uint8Array; readonly message?: never }
);

/** A signature (docs/spec.md §4.25 item 3): ECDSA as JOSE's raw r || s, the version that signed and its `kid`; bytes, not base64. */
export type SignatureView = Omit<Extract<Answer<'/api/crypto/sign', 'post'>, { readonly signature: string }>, 'signature'> & {
  readonly signature: Uint8Array<ArrayBuffer>;
};

/** What verify takes: a signature (bytes, or standard base64), and at most one of `version` and `kid`. */
export type VerifyInput = SignInput & {
  readonly signature: Uint8Array | string;
  readonly version?: number;
  readonly kid?: string;
};

/** Verify's answer (docs/spec.md §4.25 item 4): a valid one names the version and `kid` that verified it. */
export type VerifyView = Extract<Answer<'/api/crypto/sign/verify', 'post'>, { readonly valid: boolean }>;

/** A version's public key as a JWK (RFC 7517), with its RFC 7638 thumbprint as `kid`, the key's `alg` and `use: "sig"` (docs/spec.md §4.25 item 6). */
export type SigningJwk = Schemas['SigningJwk'];

/** A JSON Web Key Set: the key's versions not retired, newest first. */
export type Jwks = Answer<'/api/keys/{ttag}/jwks', 'get'>;

/** A version's public key (docs/spec.md §4.25 item 6): PEM (SPKI) and JWK. */
export type PublicKeyView = Answer<'/api/keys/{ttag}/public-key', 'get'>;

/** A compact JWS signed in the key server (docs/spec.md §4.25 item 5). */
export type SignedJwt = Answer<'/api/crypto/sign-jwt', 'post'>;

/** An exportable signing key's private key, opened on the client: PKCS#8 DER (docs/spec.md §4.25 item 1). */
export interface ExportedSigningKey {
  readonly key: Uint8Array<ArrayBuffer>;
  readonly type: KeyType;
  readonly format: 'pkcs8';
  readonly version: number;
}
