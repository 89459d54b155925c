import { z } from 'zod';
import { RIGHTS } from '../../wire/acl.js';
import type { RandomSource } from '../../domain/random-source.js';
import { openToken, sealToken, type SealingKeyring } from '../../domain/session/seal-token.js';
import type { SessionRecord } from '../../domain/session/session.js';

/**
 * A session record as it leaves the process (for Redis): JSON whose key-server token is sealed under
 * the gateway's key with the store key as associated data (`sealToken`). Whoever reads the store
 * without the key finds no usable token; a sealed token copied under another store key fails to open.
 */
const storedSession = z.strictObject({
  v: z.literal(1),
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

/** The JSON stored under `key` for `record`. */
export function encodeSession(key: string, record: SessionRecord, keyring: SealingKeyring, random: RandomSource): string {
  const { token, ...rest } = record;
  return JSON.stringify({ v: 1, ...rest, token: sealToken(token, key, keyring, random) });
}

/**
 * The record stored under `key`. Throws when the JSON is not a stored session or the token does not
 * open (tampered, moved from another key, or sealed under a key this gateway no longer holds).
 */
export function decodeSession(key: string, json: string, keyring: SealingKeyring): SessionRecord {
  const { v: _version, token, ...rest } = storedSession.parse(JSON.parse(json));
  return { ...rest, token: openToken(token, key, keyring) };
}
