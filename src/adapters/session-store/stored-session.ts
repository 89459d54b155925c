import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { RIGHTS } from '../../wire/acl.js';
import type { RandomSource } from '../../domain/random-source.js';
import { openText, sealText, type SealingKey, type SealingKeyring } from '../../domain/session/seal-token.js';
import { Secret } from '../../domain/secret/secret.js';
import type { SessionRecord } from '../../domain/session/session.js';

/**
 * A session record as it leaves the process (for Redis, docs/spec.md §12 item 1): the whole record (identity,
 * binding, kind, expiry, objects, rights, token) as JSON sealed under the gateway's key with the store
 * key as associated data (`sealText`). Whoever reads the store learns nothing of it; whoever writes to
 * it can only make a record fail to open (then it is no session), never change or move one.
 * Records of format 1 (only the token sealed) are refused: they could have been edited.
 */
const storedSession = z.strictObject({
  v: z.literal(2),
  ref: z.string(),
  identity: z.strictObject({ user: z.string(), systemId: z.number(), principalId: z.string() }),
  token: z.string(),
  kind: z.enum(['password', 'certificate', 'scoped', 'delegated']),
  createdAt: z.number(),
  expiresAt: z.number(),
  jkt: z.string().optional(),
  objects: z.array(z.string()).optional(),
  rights: z.array(z.enum(RIGHTS)).optional(),
  actingFor: z.string().optional(),
});

/** The sealed text stored under `key` for `record`. */
export function encodeSession(key: string, record: SessionRecord, keyring: SealingKeyring, random: RandomSource): string {
  const { token, ...rest } = record;
  return sealText(JSON.stringify({ v: 2, ...rest, token: token.reveal() }), key, keyring, random);
}

/**
 * The record stored under `key`. Throws a SealedTokenError when the text does not open (altered, moved
 * from another key, or sealed under a key this gateway no longer holds), another error when what opens
 * is not a stored session.
 */
export function decodeSession(key: string, sealed: string, keyring: SealingKeyring): SessionRecord {
  const { v: _version, token, ...rest } = storedSession.parse(JSON.parse(openText(sealed, key, keyring)));
  return { ...rest, token: new Secret(token) };
}

const indexKeys = new WeakMap<SealingKey, KeyObject>();

/**
 * The name a principal's index goes by in the store: HMAC-SHA256 of its principal id under a key
 * derived (HKDF) from one sealing key, so the index keys name no principal in clear. Every gateway
 * holding the key names it alike.
 */
export function principalIndexId(principalId: string, sealingKey: SealingKey): string {
  let key = indexKeys.get(sealingKey);
  if (key === undefined) {
    const derived = hkdfSync('sha256', sealingKey.key, Buffer.alloc(0), 'keygate principal index', 32);
    key = createSecretKey(Buffer.from(derived));
    indexKeys.set(sealingKey, key);
  }
  return createHmac('sha256', key).update(principalId, 'utf8').digest('base64url');
}
