import type { Identity } from './identity.js';
import type { KeyLength } from './key-length.js';

/** A key's state: an expired key refuses export and cryptography (api-surface.md operation 16). */
export type KeyState = 'active' | 'expired';

/**
 * The key view of api-surface.md "Key lifecycle". Never key material. `ttag` is standard base64 (as in
 * bodies); times are ISO 8601.
 */
export interface KeyView {
  readonly ttag: string;
  readonly keyLen: KeyLength;
  /** The fixed label of the delivered data key, as in the export response (seed 000 §2). */
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

/** Seed 000 §2: `algo` is a fixed label for the delivered data key, not derived from it. */
export const EXPORT_ALGO = 'aes-128-cbc';
