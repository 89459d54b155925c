import { type AuditCheckpoint, type ChainedAuditEntry, entryHash } from './audit-entry.js';

/** A break of the public hash chain, in the verifier's `AuditBreak` shape (always an edit). */
interface HashBreak {
  readonly writer: string;
  readonly seq: number;
  readonly id: string;
  readonly kind: 'edited';
  readonly detail: string;
}

type Found = { found: HashBreak; at: number } | undefined;

/** One writer's walk along its public hash chain. */
export interface HashWalk {
  /** The last hash seen ('' before the first). */
  previous: string;
  /** Whether an entry with a hash was seen. */
  hashed: boolean;
  /** No entry was walked yet. */
  first: boolean;
}

/**
 * The next entry of one writer's public hash chain (in seq order, its link already checked): its hash
 * is SHA-256 of the previous one and the entry's canonical content, so anyone can check it without the
 * MAC key. Entries without a hash are accepted only before the first one that has it (written before
 * the hash chain and not given one at migration); that first one then starts from ''. In a slice that
 * starts mid-chain (`partial`), the first entry's hash is taken as given.
 */
export function hashStep(walk: HashWalk, entry: ChainedAuditEntry, partial: boolean): Found {
  const takenAsGiven = partial && walk.first;
  walk.first = false;
  if (entry.hash === undefined) return walk.hashed ? edited(entry, 'its public hash is missing, after entries that carry one') : undefined;
  if (!takenAsGiven && entry.hash !== entryHash(walk.previous, entry)) return edited(entry, 'its content does not match its public hash');
  walk.previous = entry.hash;
  walk.hashed = true;
  return undefined;
}

/** The public hash chain of one writer's entries, whole (`hashStep` over them in order). */
export function checkHashChain(entries: readonly ChainedAuditEntry[], partial = false): Found {
  const walk: HashWalk = { previous: '', hashed: false, first: true };
  for (const entry of entries) {
    const found = hashStep(walk, entry, partial);
    if (found) return found;
  }
  return undefined;
}

/**
 * A signed checkpoint that names a hash must still find that hash at its seq: content edited below a
 * checkpoint, with every hash after it recomputed, no longer matches the head the checkpoint signed.
 * Run once the checkpoint's signature is known to hold.
 */
export function signedHashBreak(entry: ChainedAuditEntry, checkpoint: AuditCheckpoint): Found {
  if (checkpoint.hash === undefined || entry.hash === checkpoint.hash) return undefined;
  return edited(entry, `the public hash chain up to seq ${entry.seq} is not the one its checkpoint signed`);
}

function edited(entry: ChainedAuditEntry, detail: string): Found {
  return { found: { writer: entry.writer, seq: entry.seq, id: entry.id, kind: 'edited', detail }, at: entry.at };
}
