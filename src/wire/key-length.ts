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

/** The failure a side raises for a NID or length outside the family, as its own error class. */
export type KeyLengthError = new (code: 'KEY_SERVER_FAILED' | 'INTERNAL', detail: string) => Error;

/**
 * docs/spec.md §3.3: the export blob NID is authoritative for the key length. A NID outside the
 * family is KEY_SERVER_FAILED, raised as `Failure` (the gateway's or the key server's error class).
 */
export function keyLengthForNid(nid: number, Failure: KeyLengthError): KeyLength {
  const length = lengthOfNid(nid);
  if (length === undefined) throw new Failure('KEY_SERVER_FAILED', `unsupported export blob NID ${nid}`);
  return length;
}

/** The export blob NID of a key length; INTERNAL (raised as `Failure`) if the table lacks one. */
export function nidForKeyLength(length: KeyLength, Failure: KeyLengthError): number {
  const nid = nidOfLength(length);
  if (nid === undefined) throw new Failure('INTERNAL', `no NID for key length ${String(length)}`);
  return nid;
}

export function isKeyLength(value: unknown): value is KeyLength {
  return typeof value === 'number' && (KEY_LENGTHS as readonly number[]).includes(value);
}
