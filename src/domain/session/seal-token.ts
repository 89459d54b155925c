import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject } from 'node:crypto';
import type { RandomSource } from '../../crypto/random-source.js';
import { Secret } from '../secret/secret.js';

/** AES-256-GCM: a session key is 32 bytes. */
export const SESSION_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Format tag of a sealed token: `kg1.<key id>.<iv>.<ciphertext>.<tag>`, each part base64url. */
const FORMAT = 'kg1';
const KEY_ID_LENGTH = 8;

/** One gateway key and its short id (derived from the key, so every gateway names it alike). */
export interface SealingKey {
  readonly id: string;
  readonly key: KeyObject;
}

/** The keys a gateway holds: the first seals, every one opens (so a key can be rotated in and out). */
export interface SealingKeyring {
  readonly current: SealingKey;
  readonly byId: ReadonlyMap<string, SealingKey>;
}

/** Why a sealed token could not be opened. The record holding it is unusable; no detail is secret. */
export class SealedTokenError extends Error {
  readonly reason: 'malformed' | 'unknown-key' | 'rejected';

  constructor(reason: SealedTokenError['reason'], message: string) {
    super(message);
    this.name = 'SealedTokenError';
    this.reason = reason;
  }
}

/**
 * The id a sealed token names its key by: 8 base64url characters of SHA-256 over a label and the key.
 * It tells keys apart; it reveals nothing usable about a 256-bit random key.
 */
export function sealingKeyId(key: Uint8Array): string {
  return createHash('sha256').update('keygate session sealing key\0').update(key).digest('base64url').slice(0, KEY_ID_LENGTH);
}

/** Builds a keyring from raw keys, the sealing key first. Refuses an empty list, a wrong length, a repeat. */
export function sealingKeyring(keys: readonly Uint8Array[]): SealingKeyring {
  if (keys.length === 0) throw new RangeError('at least one session key is required');
  const byId = new Map<string, SealingKey>();
  keys.forEach((raw, index) => {
    if (raw.length !== SESSION_KEY_BYTES)
      throw new RangeError(`session key ${index + 1} is ${raw.length} bytes, expected ${SESSION_KEY_BYTES}`);
    const id = sealingKeyId(raw);
    if (byId.has(id)) throw new RangeError(`session key ${index + 1} repeats an earlier key`);
    byId.set(id, { id, key: createSecretKey(Buffer.from(raw)) });
  });
  return { current: byId.values().next().value!, byId };
}

/**
 * Seals a key-server token for storage outside the process (AES-256-GCM under the keyring's current
 * key, a fresh 96-bit iv from `random`). `aad` binds the ciphertext to where it is stored (the session's
 * store key): opened under any other `aad`, it is rejected, so it cannot be moved to another session.
 */
export function sealToken(token: Secret, aad: string, keyring: SealingKeyring, random: RandomSource): string {
  return sealText(token.reveal(), aad, keyring, random);
}

/** Opens what `sealToken` made, under the same `aad`, with whichever keyring key it names. */
export function openToken(sealed: string, aad: string, keyring: SealingKeyring): Secret {
  return new Secret(openText(sealed, aad, keyring));
}

/** Seals any text as `sealToken` does a token (docs/spec.md §12 item 1: a whole session record). */
export function sealText(plaintext: string, aad: string, keyring: SealingKeyring, random: RandomSource): string {
  const { id, key } = keyring.current;
  const iv = Buffer.from(random.bytes(IV_BYTES));
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [FORMAT, id, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens what `sealText` made; any change to it, or another `aad`, is a SealedTokenError. */
export function openText(sealed: string, aad: string, keyring: SealingKeyring): string {
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== FORMAT) throw new SealedTokenError('malformed', 'not a sealed token');
  const [, id, ivText, ciphertextText, tagText] = parts as [string, string, string, string, string];
  const entry = keyring.byId.get(id);
  if (entry === undefined) throw new SealedTokenError('unknown-key', `sealed under key ${id}, which this gateway does not hold`);
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SealedTokenError('malformed', 'bad iv or tag length');
  const decipher = createDecipheriv('aes-256-gcm', entry.key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedTokenError('rejected', 'the sealed token failed authentication');
  }
}
