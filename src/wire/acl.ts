import type { EncryptionContext } from './encryption-context.js';

/**
 * Rights on a key (docs/spec.md §4.3 item 4). The owner holds all of them. `rotate` adds a version to
 * the key, `tag` sets and deletes its tags (docs/spec.md §4.23 item 2), `sign` signs with a signing key
 * (docs/spec.md §4.25); the seven-operation surface's grant accepts none of them.
 */
export const RIGHTS = ['read', 'export', 'encrypt', 'decrypt', 'mac', 'rotate', 'tag', 'sign'] as const;
export type Right = (typeof RIGHTS)[number];

/** Rights a grant on the seven-operation surface gives (docs/spec.md §2.3 item 4: export access to the key). */
export const GRANT_RIGHTS: readonly Right[] = ['read', 'export'];

export function isRight(value: string): value is Right {
  return (RIGHTS as readonly string[]).includes(value);
}

/**
 * What an ACL entry may require of a request before it gives its rights (docs/spec.md §4.5b item 4):
 * an encryption context holding every member of `context` (1..16 members, the context rules of item 1).
 */
export interface GrantConditions {
  readonly context: EncryptionContext;
}
