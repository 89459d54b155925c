import { lengthOfNid, nidOfLength, type KeyLength } from '../../wire/key-length.js';
import { KeyServerError } from './key-server-errors.js';

/** docs/spec.md §3.3: the export blob NID is authoritative for the key length. */
export function keyLengthForNid(nid: number): KeyLength {
  const length = lengthOfNid(nid);
  if (length === undefined) throw new KeyServerError('KEY_SERVER_FAILED', `unsupported export blob NID ${nid}`);
  return length;
}

export function nidForKeyLength(length: KeyLength): number {
  const nid = nidOfLength(length);
  if (nid === undefined) throw new KeyServerError('INTERNAL', `no NID for key length ${String(length)}`);
  return nid;
}
