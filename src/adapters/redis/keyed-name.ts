import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { SealingKey } from '../../domain/session/seal-token.js';

const nameKeys = new WeakMap<SealingKey, KeyObject>();

/**
 * The name a principal goes by in Redis (docs/spec.md §12 item 1): HMAC-SHA256 of its principal id
 * under a key derived (HKDF) from one sealing key, so no key of the store names a principal in clear,
 * and a reader of the store without the session keys cannot test a guess. Every gateway holding the
 * key names it alike. The session store's principal and service indexes and the replay cache's
 * per-principal share all use it.
 */
export function principalIndexId(principalId: string, sealingKey: SealingKey): string {
  let key = nameKeys.get(sealingKey);
  if (key === undefined) {
    const derived = hkdfSync('sha256', sealingKey.key, Buffer.alloc(0), 'keygate principal index', 32);
    key = createSecretKey(Buffer.from(derived));
    nameKeys.set(sealingKey, key);
  }
  return createHmac('sha256', key).update(principalId, 'utf8').digest('base64url');
}
