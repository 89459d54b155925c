import type { Identity } from './identity.js';
import type { KeyLength } from './key-length.js';
import type { KeyTags } from './key-tags.js';
import type { KeyType, SigningAlg } from './key-type.js';

/**
 * A key's state (docs/spec.md §4.6, §4.23 item 4): a disabled key refuses export and cryptography until
 * enabled, an expired key for good, a key pending deletion until its deletion is cancelled, a deleted
 * key (a tombstone) for good. The first that holds of deleted, pending-deletion, expired, disabled, active.
 */
export type KeyState = 'active' | 'disabled' | 'expired' | 'pending-deletion' | 'deleted';

/** Every key state, in the order of precedence (docs/spec.md §4.23 item 4). */
export const KEY_STATES = ['deleted', 'pending-deletion', 'expired', 'disabled', 'active'] as const satisfies readonly KeyState[];

/** A version's state: `retired` when it is below the key's minVersion (it refuses export, decrypt and MAC verify). */
export type KeyVersionState = 'active' | 'retired';

/** One version of a key as the key view lists it (never its material). */
export interface KeyVersionView {
  /** 1 for the key's first material, one more for every rotation. */
  readonly version: number;
  /** When this version was made (ISO 8601). */
  readonly createdAt: string;
  readonly state: KeyVersionState;
}

/**
 * The key view (docs/spec.md §4.6). Never key material. `ttag` is standard base64 (as in
 * bodies); times are ISO 8601.
 */
export interface KeyView {
  readonly ttag: string;
  /** `aes`, or a signing key's type (docs/spec.md §4.25 item 1). */
  readonly type: KeyType;
  /** An `aes` key's length in bytes; absent on a signing key. */
  readonly keyLen?: KeyLength;
  /** The fixed label of the delivered data key, as in the export response (docs/spec.md §3.3); an `aes` key's only. */
  readonly algo?: string;
  /** A signing key's: the algorithm its JWKS names and sign-jwt uses (docs/spec.md §4.25 item 2). */
  readonly alg?: SigningAlg;
  /** A signing key's: whether its private key may be exported. */
  readonly exportable?: boolean;
  /** A signing key's: whether any gateway serves its JWKS without a session (docs/spec.md §4.25 item 7). */
  readonly published?: boolean;
  /** A signing key's: the longest lifetime of a JWT it signs, in seconds (docs/spec.md §4.25 item 5). */
  readonly jwtMaxLifetime?: number;
  readonly label?: string;
  readonly owner: Identity;
  readonly state: KeyState;
  readonly createdAt: string;
  readonly expiresAt?: string;
  /** The newest version: the one encrypt and MAC use, and export delivers by default. */
  readonly version: number;
  /** Versions below it are retired. Never goes down; 1 for a key never restricted. */
  readonly minVersion: number;
  /** The newest versions (at most 20), oldest first; the versions operation pages through all of them. */
  readonly versions: readonly KeyVersionView[];
  /** How many older versions `versions` leaves out, when any (docs/spec.md §4.22 item 1). */
  readonly versionsOmitted?: number;
  /** The scheduled rotation period as given (an ISO 8601 duration), when the key has one. */
  readonly rotationPeriod?: string;
  /** When the next scheduled rotation falls due (ISO 8601), when the key has a rotation period. */
  readonly nextRotationAt?: string;
  /** When the key was last used (ISO 8601), at most 60 s behind its latest use (docs/spec.md §4.23 item 6). */
  readonly lastUsedAt?: string;
  /** The use that wrote `lastUsedAt`. */
  readonly lastUsedOperation?: KeyUse;
  /** The key's tags, name to value; `{}` for none (docs/spec.md §4.23 item 2). */
  readonly tags: KeyTags;
  /** When the key server's sweep destroys the key (ISO 8601), while it waits (docs/spec.md §4.23 item 5). */
  readonly deletionAt?: string;
  /** When the sweep destroyed the key's material (ISO 8601): the key is a tombstone. */
  readonly deletedAt?: string;
}

/** A key as the key list shows it (docs/spec.md §4.23 item 1): the view without its versions. */
export type KeySummary = Omit<KeyView, 'versions' | 'versionsOmitted'>;

/** The filters of the key list (docs/spec.md §4.23 item 1); times in ms since the epoch. */
export interface KeyListFilters {
  readonly q?: string | undefined;
  readonly tag?: readonly string[] | undefined;
  readonly state?: KeyState | undefined;
  readonly owner?: string | undefined;
  readonly createdAfter?: number | undefined;
  readonly createdBefore?: number | undefined;
}

/** The uses of a key's material that count as its last use (docs/spec.md §4.23 item 6; the root export is `export`). */
export const KEY_USES = [
  'export',
  'encrypt',
  'decrypt',
  'mac',
  'mac.verify',
  'rewrap',
  'datakey',
  'datakey.open',
  'sign',
  'sign.verify',
  'sign-jwt',
] as const;
export type KeyUse = (typeof KEY_USES)[number];
/** A use writes the last use only when the stored one is absent or at least this much older (ms). */
export const KEY_USE_GRAIN_MS = 60_000;

/** What a key is created with (operation 13). `expiresAt` is ms since the epoch. */
export interface NewKey {
  /** `aes` when absent (docs/spec.md §4.25 item 1). */
  readonly type?: KeyType | undefined;
  /** An `aes` key's length: required for one, refused for a signing key. */
  readonly keyLen?: KeyLength | undefined;
  /** A signing key's settings (docs/spec.md §4.25 item 1); refused for an `aes` key. */
  readonly alg?: SigningAlg | undefined;
  readonly exportable?: boolean | undefined;
  readonly jwtMaxLifetime?: number | undefined;
  readonly label?: string | undefined;
  readonly expiresAt?: number | undefined;
  /** An ISO 8601 duration of at least one day (src/wire/iso-duration.ts): the key server rotates the key that often. */
  readonly rotationPeriod?: string | undefined;
}

/** docs/spec.md §3.3: `algo` is a fixed label for the delivered data key, not derived from it. */
export const EXPORT_ALGO = 'aes-128-cbc';
