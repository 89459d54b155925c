import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { SealingKey } from '../../domain/session/seal-token.js';

/** What a keyed name names; each purpose has a key of its own (the HKDF `info`). */
type Purpose = 'keygate principal index' | 'keygate throttle key';

const nameKeys = new Map<Purpose, WeakMap<SealingKey, KeyObject>>();

/**
 * HMAC-SHA256 of `value` under a key derived (HKDF) from one sealing key for `purpose`: a name in
 * Redis that names nothing in clear, and that a reader of the store without the session keys cannot
 * test a guess against (docs/spec.md §12 item 1). Every gateway holding the key names it alike.
 */
function keyedName(purpose: Purpose, value: string, sealingKey: SealingKey): string {
  const keys = nameKeys.get(purpose) ?? new WeakMap<SealingKey, KeyObject>();
  nameKeys.set(purpose, keys);
  let key = keys.get(sealingKey);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', sealingKey.key, Buffer.alloc(0), purpose, 32)));
    keys.set(sealingKey, key);
  }
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/**
 * The name a principal goes by in Redis: the session store's principal and service indexes and the
 * replay cache's per-principal share all use it.
 */
export function principalIndexId(principalId: string, sealingKey: SealingKey): string {
  return keyedName('keygate principal index', principalId, sealingKey);
}

/** The name of a throttle counter (a user name, an address, or both) in Redis. */
export function throttleKeyName(key: string, sealingKey: SealingKey): string {
  return keyedName('keygate throttle key', key, sealingKey);
}
