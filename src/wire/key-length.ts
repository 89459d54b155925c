/** The key lengths a data key may have, in bytes (docs/spec.md §7, §3.3). */
export const KEY_LENGTHS = [16, 24, 32] as const;
export type KeyLength = (typeof KEY_LENGTHS)[number];

/** OpenSSL NIDs of the export blob (aes-128/192/256 family, docs/spec.md §3.3). */
const LENGTH_BY_NID: ReadonlyMap<number, KeyLength> = new Map([
  [419, 16],
  [423, 24],
  [427, 32],
]);

/** The key length an export blob's NID names, or undefined for a NID outside the family. */
export function lengthOfNid(nid: number): KeyLength | undefined {
  return LENGTH_BY_NID.get(nid);
}

/** The NID of a key length (every KeyLength has one). */
export function nidOfLength(length: KeyLength): number | undefined {
  for (const [nid, len] of LENGTH_BY_NID) if (len === length) return nid;
  return undefined;
}

export function isKeyLength(value: unknown): value is KeyLength {
  return typeof value === 'number' && (KEY_LENGTHS as readonly number[]).includes(value);
}
