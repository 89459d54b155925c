import { lengthOfNid, nidOfLength, type KeyLength } from '../../wire/key-length.js';
import { KeygateError } from '../errors/keygate-error.js';

/** docs/spec.md §3.3: the export blob NID is authoritative for the key length. */
export function keyLengthForNid(nid: number): KeyLength {
  const length = lengthOfNid(nid);
  if (length === undefined) throw new KeygateError('KEY_SERVER_FAILED', `unsupported export blob NID ${nid}`);
  return length;
}

export function nidForKeyLength(length: KeyLength): number {
  const nid = nidOfLength(length);
  if (nid === undefined) throw new KeygateError('INTERNAL', `no NID for key length ${String(length)}`);
  return nid;
}
