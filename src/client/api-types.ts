/**
 * The /api views the client reads (docs/spec.md §4.4-§4.16), as the gateway answers them. Times are ISO 8601
 * strings; binary values and ttags are standard base64.
 */

export type Right = 'read' | 'export' | 'encrypt' | 'decrypt' | 'mac' | 'rotate';
export type KeyLength = 16 | 24 | 32;

export interface Identity {
  readonly user: string;
  readonly systemId: number;
  readonly principalId: string;
}

/** Session view; `sessionId` appears only when a session is minted. */
export interface SessionView extends Identity {
  readonly sessionId?: string;
  readonly kind: 'password' | 'certificate' | 'scoped' | 'delegated';
  readonly bound: boolean;
  readonly jkt?: string;
  readonly objects?: readonly string[];
  readonly rights?: readonly Right[];
  readonly expiresAt?: string;
  readonly actingFor?: string;
}

/** One live session of the caller's principal, by a non-secret reference. */
export interface SessionListItem {
  readonly ref: string;
  readonly kind: SessionView['kind'];
  readonly bound: boolean;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface ListView<T> {
  readonly items: readonly T[];
  readonly complete: boolean;
  readonly reason?: string;
  readonly next?: string;
}

/** Key view: never key material. */
export interface KeyView {
  readonly ttag: string;
  readonly keyLen: KeyLength;
  readonly algo: string;
  readonly label?: string;
  readonly owner: Identity;
  readonly state: 'active' | 'expired';
  readonly createdAt: string;
  readonly expiresAt?: string;
  /** The newest version (docs/spec.md §4.22). */
  readonly version: number;
  /** Versions below it are retired: they refuse export, decrypt, MAC verify and rewrap. */
  readonly minVersion: number;
  /** The newest versions (at most 20), oldest first; `keyVersions` pages through all of them. */
  readonly versions: readonly KeyVersionView[];
  /** How many older versions `versions` leaves out, when any. */
  readonly versionsOmitted?: number;
  /** An ISO 8601 duration (`P90D`): the key server rotates the key once it has passed. */
  readonly rotationPeriod?: string;
  readonly nextRotationAt?: string;
}

/** One version of a key; `retired` below the key's `minVersion`. */
export interface KeyVersionView {
  readonly version: number;
  readonly createdAt: string;
  readonly state: 'active' | 'retired';
}

export interface NewKeyRequest {
  readonly keyLen?: KeyLength;
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
}

export interface MacView {
  readonly mac: string;
  readonly alg: 'HS256';
  /** The key version the MAC was made under. */
  readonly version?: number;
}

export interface AclView {
  readonly owner: Identity;
  readonly items: readonly { readonly principal: string; readonly rights: readonly Right[] }[];
  readonly complete: boolean;
}

export interface AclEntry {
  readonly principal: string;
  readonly rights: readonly Right[];
}

export interface HealthView {
  readonly ok: boolean;
  readonly ksFingerprint: string;
  readonly sessions: number;
  readonly version?: string;
  readonly checks?: Readonly<Record<string, unknown>>;
}

/** Bytes, or text sent as its UTF-8 bytes. */
export type Data = Uint8Array | string;
