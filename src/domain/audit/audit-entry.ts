import { createHash, createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { EncryptionContext } from '../../wire/encryption-context.js';
import type { AuditCompletion, AuditRecord } from './audit.js';
import { auditContextPairs } from './audit-context.js';

/**
 * How an entry stands in the append-only history (docs/spec.md §9.2, §9.3): a `pending`
 * entry is written before a sensitive operation runs and its `outcome` entry (same `id` and
 * `requestId`) after; every other operation is one `record` entry. No entry is ever updated.
 */
export const AUDIT_ENTRY_KINDS = ['pending', 'outcome', 'record'] as const;
export type AuditEntryKind = (typeof AUDIT_ENTRY_KINDS)[number];

/** A record's content plus its place in its writer's chain. */
export interface AuditEntry extends AuditRecord {
  readonly entry: AuditEntryKind;
  /** The gateway that wrote it; absent only in a store opened without a chain. */
  readonly writer?: string;
  /** 1, 2, 3, ... per writer, without gaps. */
  readonly seq?: number;
  /** The MAC of the writer's previous entry ('' for its first). */
  readonly prev?: string;
  /** HMAC-SHA256(audit key, canonical content || '\n' || prev), lower-case hex. */
  readonly mac?: string;
  /**
   * SHA-256(previous entry's hash || canonical content), lower-case hex ('' before the first): the
   * public chain, which anyone can recompute and checkpoints sign, so an edit below a checkpoint shows
   * without the MAC key. Absent on entries written before it existed whose MAC did not verify.
   */
  readonly hash?: string;
}

/** An entry of a chain: every chain field present. */
export type ChainedAuditEntry = AuditEntry & { readonly writer: string; readonly seq: number; readonly prev: string; readonly mac: string };

/** A writer's signed chain head: its entry `seq` had MAC `mac` (and public hash `hash`) at time `at`. */
export interface AuditCheckpoint {
  readonly writer: string;
  readonly seq: number;
  readonly mac: string;
  /** The entry's public hash; absent on checkpoints signed before the hash chain existed. */
  readonly hash?: string;
  readonly at: number;
  /** Which Ed25519 key signed it (`auditKeyId`). */
  readonly keyId: string;
  /** Ed25519 signature over `canonicalCheckpoint`, base64. */
  readonly signature: string;
}

export function isChained(entry: AuditEntry): entry is ChainedAuditEntry {
  return (
    typeof entry.writer === 'string' &&
    entry.writer !== '' &&
    Number.isSafeInteger(entry.seq) &&
    typeof entry.prev === 'string' &&
    typeof entry.mac === 'string'
  );
}

/**
 * Every field of an audit record, once: the MAC covers them in this order (canonicalEntry), and the
 * SQL stores keep one column each (adapters/audit-log/audit-sql.ts). Changing the order breaks every
 * stored MAC.
 */
export const AUDIT_RECORD_FIELDS = [
  'id',
  'at',
  'requestId',
  'operation',
  'principal',
  'sessionRef',
  'object',
  'outcome',
  'status',
  'code',
  'clientAddress',
  'actingFor',
] as const satisfies readonly (keyof AuditRecord)[];

/**
 * The fields added after the chain existed (docs/spec.md §9.1 `version`, `items`, `failures`). The MAC
 * covers them, in this order, only on an entry that carries one of them: an entry without any has
 * exactly the canonical form it had before they existed, so every stored MAC still verifies.
 */
export const AUDIT_DETAIL_FIELDS = ['version', 'items', 'failures'] as const satisfies readonly (keyof AuditRecord)[];

/**
 * The fields a batch's record added after those (docs/spec.md §9.1 `keys`, `keysOmitted`). An entry
 * carrying one of them has the detail fields in its canonical form too, then these, each key as
 * `[ttag, version]`; an entry without them keeps the canonical form it had before they existed.
 */
export const AUDIT_BATCH_FIELDS = ['keys', 'keysOmitted'] as const satisfies readonly (keyof AuditRecord)[];

/**
 * The field the key inventory added (docs/spec.md §9.1 `alias`). An entry carrying it has the detail and
 * batch fields in its canonical form too, then it; an entry without it keeps the form it had before.
 */
export const AUDIT_ALIAS_FIELDS = ['alias'] as const satisfies readonly (keyof AuditRecord)[];

/**
 * The fields signing keys added (docs/spec.md §4.25 item 8, §9.1 `keyType`, `alg`, `kid`). An entry
 * carrying one of them has the detail, batch and alias fields in its canonical form too, then these, in
 * this order; an entry without any keeps the form it had before they existed.
 */
export const AUDIT_SIGNING_FIELDS = ['keyType', 'alg', 'kid'] as const satisfies readonly (keyof AuditRecord)[];

/**
 * The fields the encryption context added (docs/spec.md §4.5b item 5, §9.1 `context`, `contexts`,
 * `contextsOmitted`). An entry carrying one of them has the detail, batch, alias and signing fields in
 * its canonical form too, then these, each context as its `[name, value]` pairs in ascending byte
 * order of the names (`auditContextPairs`); an entry without any keeps the form it had before.
 */
export const AUDIT_CONTEXT_FIELDS = ['context', 'contexts', 'contextsOmitted'] as const satisfies readonly (keyof AuditRecord)[];

// A field added to AuditRecord and not to one of the lists above fails to compile here.
const everyRecordField: Record<
  Exclude<
    keyof AuditRecord,
    | (typeof AUDIT_RECORD_FIELDS)[number]
    | (typeof AUDIT_DETAIL_FIELDS)[number]
    | (typeof AUDIT_BATCH_FIELDS)[number]
    | (typeof AUDIT_ALIAS_FIELDS)[number]
    | (typeof AUDIT_SIGNING_FIELDS)[number]
    | (typeof AUDIT_CONTEXT_FIELDS)[number]
  >,
  never
> = {};
void everyRecordField;

/**
 * The exact bytes the MAC covers: a JSON array of every content field in a fixed order, absent
 * optional fields as null. The writer, seq and kind are part of it, so moving an entry breaks its MAC.
 */
export function canonicalEntry(entry: AuditEntry): string {
  const fields: unknown[] = ['keygate-audit-entry/1', entry.writer ?? null, entry.seq ?? null, entry.entry];
  for (const field of AUDIT_RECORD_FIELDS) fields.push(entry[field] ?? null);
  const contexts = entry.context !== undefined || entry.contexts !== undefined || entry.contextsOmitted !== undefined;
  const signing = contexts || entry.keyType !== undefined || entry.alg !== undefined || entry.kid !== undefined;
  const aliased = signing || entry.alias !== undefined;
  const batch = aliased || entry.keys !== undefined || entry.keysOmitted !== undefined;
  if (batch || entry.version !== undefined || entry.items !== undefined || entry.failures !== undefined) {
    for (const field of AUDIT_DETAIL_FIELDS) fields.push(entry[field] ?? null);
  }
  if (batch) fields.push(entry.keys?.map((use) => [use.ttag, use.version ?? null]) ?? null, entry.keysOmitted ?? null);
  if (aliased) fields.push(entry.alias ?? null);
  if (signing) for (const field of AUDIT_SIGNING_FIELDS) fields.push(entry[field] ?? null);
  if (contexts) {
    fields.push(
      entry.context === undefined ? null : auditContextPairs(entry.context),
      entry.contexts?.map(auditContextPairs) ?? null,
      entry.contextsOmitted ?? null,
    );
  }
  return JSON.stringify(fields);
}

/** The MAC an entry must carry under `key`. */
export function entryMac(key: Uint8Array | KeyObject, entry: AuditEntry): string {
  // One update of the joined text: the same bytes as three, at one call into OpenSSL instead of three.
  return createHmac('sha256', key)
    .update(`${canonicalEntry(entry)}\n${entry.prev ?? ''}`)
    .digest('hex');
}

/** The public hash an entry must carry, after an entry with hash `previous` ('' for the first). */
export function entryHash(previous: string, entry: AuditEntry): string {
  return createHash('sha256')
    .update(`${previous}${canonicalEntry(entry)}`)
    .digest('hex');
}

/** Constant-time comparison of the MAC an entry carries with the one it should carry. */
export function hasValidMac(key: Uint8Array, entry: AuditEntry): boolean {
  if (typeof entry.mac !== 'string' || !/^[0-9a-f]{64}$/.test(entry.mac)) return false;
  return timingSafeEqual(Buffer.from(entry.mac, 'hex'), Buffer.from(entryMac(key, entry), 'hex'));
}

/** The bytes a checkpoint's signature covers (version 2 with the public hash, 1 without). */
export function canonicalCheckpoint(checkpoint: Omit<AuditCheckpoint, 'signature' | 'keyId'>): Buffer {
  const content =
    checkpoint.hash === undefined
      ? ['keygate-audit-checkpoint/1', checkpoint.writer, checkpoint.seq, checkpoint.mac, checkpoint.at]
      : ['keygate-audit-checkpoint/2', checkpoint.writer, checkpoint.seq, checkpoint.mac, checkpoint.hash, checkpoint.at];
  return Buffer.from(JSON.stringify(content), 'utf8');
}

/** A signing key's id: the first 16 hex digits of the SHA-256 of its public key (SPKI DER). */
export function auditKeyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** A time range of the chains: both bounds inclusive (ms since the epoch), either absent. */
export interface AuditChainRange {
  readonly from?: number;
  readonly to?: number;
}

/** What a store holds of a range, as the verifier takes it. */
export interface AuditChainSlice {
  readonly entries: readonly AuditEntry[];
  readonly checkpoints: readonly AuditCheckpoint[];
  /** The range starts after the beginning of the chains: each writer's first link is taken as given. */
  readonly partial: boolean;
}

/** Entries a page of a chain read holds at most, unless the reader is told otherwise. */
export const AUDIT_CHAIN_PAGE_SIZE = 1000;

/**
 * A range of the chains read page by page (for verification): the checkpoints whole, then the entries
 * in chain order (`inChainOrder`: the unchained ones by `at` then `id`, then each writer's by seq,
 * writer after writer). Each writer's part is fixed when the read begins: entries it chains while the
 * pages are read are not part of it.
 */
export interface AuditChainPages {
  readonly checkpoints: readonly AuditCheckpoint[];
  readonly partial: boolean;
  readonly pages: AsyncIterable<readonly AuditEntry[]>;
}

/** Text no store keeps as given: NUL (PostgreSQL's text refuses it) and a lone surrogate (not UTF-8). */
const UNSTORABLE = /[\0\ud800-\udfff]/;
/** NUL and each lone surrogate (a high one not followed by a low one, a low one not after a high one). */
const UNSTORABLE_EACH = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text as every audit store keeps it (docs/operations.md "What is chained, and with which keys"): NUL and each lone surrogate
 * become U+FFFD, the rest is kept as given (other controls, non-BMP characters, combining marks, any
 * length). Well-formed UTF-16 without NUL is stored byte for byte as UTF-8 by SQLite and PostgreSQL,
 * so an entry sealed over this text is the entry a verifier reads back. Deterministic and idempotent.
 */
export function storableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_EACH, '\ufffd') : text;
}

/**
 * The object with every text value made storable (`storableText`), the names and values of its
 * encryption contexts included; the object itself when none needed it.
 */
export function storableFields<T extends object>(value: T): T {
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const field = value[key];
    let stored: unknown = field;
    if (typeof field === 'string') {
      if (UNSTORABLE.test(field)) stored = storableText(field);
    } else if (key === 'context' && field !== undefined) {
      stored = storableContext(field as EncryptionContext);
    } else if (key === 'contexts' && Array.isArray(field)) {
      const contexts = field as readonly EncryptionContext[];
      const each = contexts.map(storableContext);
      if (each.some((context, index) => context !== contexts[index])) stored = each;
    }
    if (stored === field) continue;
    copy ??= Object.assign({}, value) as Record<string, unknown>;
    copy[key] = stored;
  }
  return (copy ?? value) as T;
}

/** A context with its names and values storable: the context itself when they all are. */
function storableContext(context: EncryptionContext): EncryptionContext {
  const pairs = Object.entries(context);
  if (!pairs.some(([name, value]) => UNSTORABLE.test(name) || UNSTORABLE.test(value))) return context;
  return Object.fromEntries(pairs.map(([name, value]) => [storableText(name), storableText(value)]));
}

/** The outcome entry that completes `pending` (same id and request; the given fields, no others), its text storable. */
export function outcomeEntry(pending: AuditRecord, completion: AuditCompletion): AuditEntry {
  const entry: Record<string, unknown> = {
    id: pending.id,
    at: completion.at ?? pending.at,
    requestId: pending.requestId,
    operation: pending.operation,
  };
  entry.outcome = completion.outcome;
  entry.status = completion.status;
  // The given fields, none undefined (a plain loop: this runs on every sensitive request).
  for (const key in completion) {
    const value = completion[key as keyof AuditCompletion];
    if (value !== undefined && key !== 'at' && key !== 'outcome' && key !== 'status') entry[key] = value;
  }
  entry.entry = 'outcome';
  return storableFields(entry) as unknown as AuditEntry;
}

/**
 * The entry an appended record becomes: `pending` while its operation runs, else a whole `record`;
 * its text storable, so that what is sealed is what is stored.
 */
export function entryOf(record: AuditRecord): AuditEntry {
  // Object.assign, not a spread followed by a field: the slow path of Node 20's V8 (see `seal`).
  return storableFields(Object.assign({}, record, { entry: record.outcome === 'pending' ? ('pending' as const) : ('record' as const) }));
}
