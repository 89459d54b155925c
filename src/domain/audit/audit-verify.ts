import { verify, type KeyObject } from 'node:crypto';
import { checkHashChain, checkSignedHashes } from './audit-hash-chain.js';
import { canonicalCheckpoint, hasValidMac, isChained, type AuditCheckpoint, type AuditEntry, type ChainedAuditEntry } from './audit-entry.js';

/** What a break in the history looks like (api-surface.md "Additions in 8.1.x"). */
export const AUDIT_BREAK_KINDS = ['edited', 'deleted', 'inserted', 'reordered', 'truncated', 'forged-checkpoint'] as const;
export type AuditBreakKind = (typeof AUDIT_BREAK_KINDS)[number];

export interface AuditBreak {
  readonly writer: string;
  readonly seq: number;
  readonly id?: string;
  readonly kind: AuditBreakKind;
  readonly detail: string;
}

export interface AuditWriterSummary {
  readonly writer: string;
  readonly entries: number;
  /** The last seq seen (0 when none). */
  readonly lastSeq: number;
  /** The seq of the last checkpoint whose signature holds, or null. */
  readonly lastCheckpoint: number | null;
}

/** The verify answer: `GET /api/audit/verify` and `keygate audit verify` print it as is. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly checked: number;
  readonly writers: readonly AuditWriterSummary[];
  readonly firstBreak?: AuditBreak;
}

export interface AuditVerifyInput {
  readonly entries: readonly AuditEntry[];
  readonly checkpoints: readonly AuditCheckpoint[];
  /** The HMAC key: without it, links and signed heads are checked but not each entry's content. */
  readonly macKey?: Uint8Array;
  /** Trusted checkpoint keys by key id. */
  readonly publicKeys: ReadonlyMap<string, KeyObject>;
  /** The entries are a slice of each chain (a time range): its first entry's link is taken as given. */
  readonly partial?: boolean;
}

/**
 * Verifies chains and checkpoints, with no I/O. Each writer's entries are walked in seq order: every
 * entry must carry the next seq, link to its predecessor's MAC and (with the key) carry its own MAC;
 * then every checkpoint must be signed by a trusted key and match the entry at its seq. The first
 * break of each writer is classified by what its neighbours still link to; the earliest one in time
 * across writers is reported.
 */
export function verifyAuditLog(input: AuditVerifyInput): AuditVerification {
  const byWriter = new Map<string, AuditEntry[]>();
  for (const entry of input.entries) {
    const writer = isChained(entry) ? entry.writer : '';
    byWriter.set(writer, [...(byWriter.get(writer) ?? []), entry]);
  }
  for (const checkpoint of input.checkpoints) if (!byWriter.has(checkpoint.writer)) byWriter.set(checkpoint.writer, []);
  const summaries: AuditWriterSummary[] = [];
  const breaks: { at: number; found: AuditBreak }[] = [];
  for (const writer of [...byWriter.keys()].sort()) {
    const entries = byWriter.get(writer)!;
    if (writer === '') {
      const first = entries[0]!;
      breaks.push({ at: first.at, found: { writer: '', seq: 0, id: first.id, kind: 'inserted', detail: `${entries.length} entries carry no chain fields` } });
      continue;
    }
    const chained = (entries as ChainedAuditEntry[]).sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1));
    const checkpoints = input.checkpoints.filter((c) => c.writer === writer).sort((a, b) => a.seq - b.seq);
    const result = verifyWriter(writer, chained, checkpoints, input);
    summaries.push(result.summary);
    if (result.found) breaks.push({ at: result.at, found: result.found });
  }
  breaks.sort((a, b) => a.at - b.at);
  const firstBreak = breaks[0]?.found;
  return { ok: firstBreak === undefined, checked: input.entries.length, writers: summaries, ...(firstBreak ? { firstBreak } : {}) };
}

interface WriterResult {
  readonly summary: AuditWriterSummary;
  readonly found?: AuditBreak;
  readonly at: number;
}

function verifyWriter(writer: string, entries: readonly ChainedAuditEntry[], checkpoints: readonly AuditCheckpoint[], input: AuditVerifyInput): WriterResult {
  const signed = checkpoints.filter((c) => signatureHolds(c, input.publicKeys));
  const lastCheckpoint = signed.length === 0 ? null : signed[signed.length - 1]!.seq;
  const summary = { writer, entries: entries.length, lastSeq: entries.length === 0 ? 0 : entries[entries.length - 1]!.seq, lastCheckpoint };
  const chainBreak = walkChain(entries, input) ?? checkHashChain(entries, input.partial);
  if (chainBreak) return { summary, found: chainBreak.found, at: chainBreak.at };
  const checkpointBreak = checkCheckpoints(writer, entries, checkpoints, input) ?? checkSignedHashes(entries, checkpoints);
  return { summary, ...(checkpointBreak ? { found: checkpointBreak.found } : {}), at: checkpointBreak?.at ?? 0 };
}

type Found = { found: AuditBreak; at: number } | undefined;

function broken(entry: ChainedAuditEntry, kind: AuditBreakKind, detail: string): Found {
  return { found: { writer: entry.writer, seq: entry.seq, id: entry.id, kind, detail }, at: entry.at };
}

/** The first link, seq or MAC that does not hold, classified by what the next entry links to. */
function walkChain(entries: readonly ChainedAuditEntry[], input: AuditVerifyInput): Found {
  const first = entries[0];
  let prevMac = input.partial && first ? first.prev : '';
  let expected = input.partial && first ? first.seq : 1;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    const next = entries[i + 1];
    if (entry.seq < expected) return broken(entry, 'inserted', `a second entry with seq ${entry.seq}`);
    if (entry.seq > expected) {
      const missing = entry.seq - 1 === expected ? `seq ${expected} is` : `seq ${expected} to ${entry.seq - 1} are`;
      return broken(entry, 'deleted', `${missing} missing before this entry`);
    }
    const nextSkipsThis = next !== undefined && next.prev === prevMac && next.prev !== entry.mac;
    if (entry.prev !== prevMac) {
      if (nextSkipsThis && entry.prev === next.mac) return broken(entry, 'reordered', `seq ${entry.seq} and ${next.seq} are swapped`);
      if (nextSkipsThis) return broken(entry, 'inserted', 'the next entry links past this one');
      return broken(entry, 'deleted', 'this entry does not link to the one before it: an entry between them is missing');
    }
    if (nextSkipsThis) return broken(entry, 'inserted', 'the next entry links past this one');
    if (input.macKey && !hasValidMac(input.macKey, entry)) return broken(entry, 'edited', 'its content does not match its MAC');
    prevMac = entry.mac;
    expected = entry.seq + 1;
  }
  return undefined;
}

/** Every checkpoint signed by a trusted key, and the chain still holding the head it signed. */
function checkCheckpoints(writer: string, entries: readonly ChainedAuditEntry[], checkpoints: readonly AuditCheckpoint[], input: AuditVerifyInput): Found {
  const bySeq = new Map(entries.map((entry) => [entry.seq, entry]));
  const firstSeq = entries[0]?.seq ?? 1;
  const lastSeq = entries.length === 0 ? 0 : entries[entries.length - 1]!.seq;
  const at = (checkpoint: AuditCheckpoint, kind: AuditBreakKind, detail: string): Found => ({
    found: { writer, seq: checkpoint.seq, kind, detail },
    at: checkpoint.at,
  });
  for (const checkpoint of checkpoints) {
    if (!signatureHolds(checkpoint, input.publicKeys)) {
      const why = input.publicKeys.has(checkpoint.keyId) ? 'its signature does not hold' : `it names key ${checkpoint.keyId}, which is not trusted`;
      return at(checkpoint, 'forged-checkpoint', `checkpoint at seq ${checkpoint.seq}: ${why}`);
    }
    if (input.partial && checkpoint.seq < firstSeq) continue;
    const entry = bySeq.get(checkpoint.seq);
    if (entry === undefined && checkpoint.seq > lastSeq) {
      const ends = lastSeq === 0 ? 'has no entries' : `ends at seq ${lastSeq}`;
      return at(checkpoint, 'truncated', `writer ${writer} ${ends}, but a checkpoint signed seq ${checkpoint.seq}`);
    }
    if (entry === undefined) return at(checkpoint, 'deleted', `seq ${checkpoint.seq}, signed by a checkpoint, is missing`);
    if (entry.mac !== checkpoint.mac) return broken(entry, 'edited', `the entry at seq ${entry.seq} is not the one its checkpoint signed`);
  }
  return undefined;
}

function signatureHolds(checkpoint: AuditCheckpoint, keys: ReadonlyMap<string, KeyObject>): boolean {
  const key = keys.get(checkpoint.keyId);
  if (key === undefined) return false;
  try {
    return verify(null, canonicalCheckpoint(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}
