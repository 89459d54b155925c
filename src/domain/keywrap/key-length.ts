import { KeygateError } from '../errors/keygate-error.js';

/** The key lengths a data key may have, in bytes (seed 000 §8). */
export const KEY_LENGTHS = [16, 24, 32] as const;
export type KeyLength = (typeof KEY_LENGTHS)[number];

/** OpenSSL NIDs of the export blob (aes-128/192/256 family, seed 000 §2). */
const LENGTH_BY_NID: ReadonlyMap<number, KeyLength> = new Map([
  [419, 16],
  [423, 24],
  [427, 32],
]);

/** Seed 000 §2: the export blob NID is authoritative for the key length. */
export function keyLengthForNid(nid: number): KeyLength {
  const length = LENGTH_BY_NID.get(nid);
  if (length === undefined) throw new KeygateError('KEY_SERVER_FAILED', `unsupported export blob NID ${nid}`);
  return length;
}

export function nidForKeyLength(length: KeyLength): number {
  for (const [nid, len] of LENGTH_BY_NID) if (len === length) return nid;
  throw new KeygateError('INTERNAL', `no NID for key length ${String(length)}`);
}

export function isKeyLength(value: unknown): value is KeyLength {
  return typeof value === 'number' && (KEY_LENGTHS as readonly number[]).includes(value);
}
