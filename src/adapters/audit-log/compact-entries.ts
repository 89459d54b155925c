import type { AuditRecord } from '../../domain/audit/audit.js';
import type { AuditEntry } from '../../domain/audit/audit-entry.js';

/** A MAC or hash as the chain writes it: 64 lower-case hex digits. */
const HEX_DIGEST = /^[0-9a-f]{64}$/;

/**
 * 32 bytes as a string of 32 Latin-1 characters: 48 bytes in V8 instead of 80 for the 64 hex digits.
 * Only a digest the chain wrote (64 lower-case hex digits) is packed; anything else is kept as given.
 */
function packDigest(hex: string): string {
  return HEX_DIGEST.test(hex) ? Buffer.from(hex, 'hex').toString('latin1') : hex;
}

function unpackDigest(value: string): string {
  return value.length === 32 ? Buffer.from(value, 'latin1').toString('hex') : value;
}

/**
 * Packs an entry's `mac`, `hash` and `prev` in place, `prev` as the same string as the packed MAC
 * before it when it is that MAC (`previous`), so a chain keeps each MAC once. Undone by `unpackEntry`.
 */
export function packEntry(entry: AuditEntry, previous: { readonly mac: string; readonly packed: string } | undefined): AuditEntry {
  const mutable = entry as { mac?: string; hash?: string; prev?: string };
  if (typeof entry.prev === 'string') mutable.prev = entry.prev === previous?.mac ? previous.packed : packDigest(entry.prev);
  if (typeof entry.mac === 'string') mutable.mac = packDigest(entry.mac);
  if (typeof entry.hash === 'string') mutable.hash = packDigest(entry.hash);
  return entry;
}

/** A copy of a packed entry as it was sealed: its digests in hex again. */
export function unpackEntry(entry: AuditEntry): AuditEntry {
  const copy = { ...entry } as { -readonly [K in keyof AuditEntry]: AuditEntry[K] };
  if (typeof copy.prev === 'string') copy.prev = unpackDigest(copy.prev);
  if (typeof copy.mac === 'string') copy.mac = unpackDigest(copy.mac);
  if (typeof copy.hash === 'string') copy.hash = unpackDigest(copy.hash);
  return copy;
}

/** The fields of an entry that are its place in the chain, not the record's content. */
const CHAIN_FIELDS: ReadonlySet<string> = new Set(['entry', 'writer', 'seq', 'prev', 'mac', 'hash']);
/** The fields an outcome entry repeats from its pending entry, which the record keeps as the pending entry had them. */
const REPEATED_FIELDS: ReadonlySet<string> = new Set(['id', 'at', 'requestId', 'operation']);

/**
 * The record an entry holds (a `pending` or whole `record` entry), completed by its `outcome` entry
 * when there is one: the record's fields, then the outcome's given fields (as `completeRecord` folds
 * a completion), none of the chain's.
 */
export function recordOf(first: AuditEntry, outcome?: AuditEntry): AuditRecord {
  const out: Record<string, unknown> = {};
  for (const key in first) {
    const value = first[key as keyof AuditEntry];
    if (value !== undefined && !CHAIN_FIELDS.has(key)) out[key] = value;
  }
  if (outcome !== undefined) {
    for (const key in outcome) {
      const value = outcome[key as keyof AuditEntry];
      if (value !== undefined && !CHAIN_FIELDS.has(key) && !REPEATED_FIELDS.has(key)) out[key] = value;
    }
  }
  return out as unknown as AuditRecord;
}
