import { z } from 'zod';
import type { RandomSource } from '../../crypto/random-source.js';
import { Secret } from '../../domain/secret/secret.js';
import { openText, type SealingKeyring, sealText } from '../../domain/session/seal-token.js';
import type { SessionRecord } from '../../domain/session/session.js';
import { RIGHTS } from '../../wire/acl.js';

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
  kind: z.enum(['password', 'certificate', 'jwt', 'scoped', 'delegated']),
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
