import type { Identity } from './identity.js';
import type { KeyLength } from './key-length.js';

/** A key's state: an expired key refuses export and cryptography (docs/spec.md §4.6). */
export type KeyState = 'active' | 'expired';

/**
 * The key view (docs/spec.md §4.6). Never key material. `ttag` is standard base64 (as in
 * bodies); times are ISO 8601.
 */
export interface KeyView {
  readonly ttag: string;
  readonly keyLen: KeyLength;
  /** The fixed label of the delivered data key, as in the export response (docs/spec.md §3.3). */
  readonly algo: string;
  readonly label?: string;
  readonly owner: Identity;
  readonly state: KeyState;
  readonly createdAt: string;
  readonly expiresAt?: string;
}

/** What a key is created with (operation 13). `expiresAt` is ms since the epoch. */
export interface NewKey {
  readonly keyLen: KeyLength;
  readonly label?: string | undefined;
  readonly expiresAt?: number | undefined;
}

/** docs/spec.md §3.3: `algo` is a fixed label for the delivered data key, not derived from it. */
export const EXPORT_ALGO = 'aes-128-cbc';
