import { entryHash, type AuditCheckpoint, type ChainedAuditEntry } from './audit-entry.js';

/** A break of the public hash chain, in the verifier's `AuditBreak` shape (always an edit). */
interface HashBreak {
  readonly writer: string;
  readonly seq: number;
  readonly id: string;
  readonly kind: 'edited';
  readonly detail: string;
}

type Found = { found: HashBreak; at: number } | undefined;

/**
 * The public hash chain of one writer's entries (in seq order, links already checked): each hash is
 * SHA-256 of the previous one and the entry's canonical content, so anyone can check it without the
 * MAC key. Entries without a hash are accepted only before the first one that has it (written before
 * the hash chain and not given one at migration); that first one then starts from ''. In a slice that
 * starts mid-chain, the first entry's hash is taken as given.
 */
export function checkHashChain(entries: readonly ChainedAuditEntry[], partial = false): Found {
  let previous = '';
  let hashed = false;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    if (entry.hash === undefined) {
      if (hashed) return edited(entry, 'its public hash is missing, after entries that carry one');
      continue;
    }
    const takenAsGiven = partial && i === 0;
    if (!takenAsGiven && entry.hash !== entryHash(previous, entry)) return edited(entry, 'its content does not match its public hash');
    previous = entry.hash;
    hashed = true;
  }
  return undefined;
}

/**
 * Every signed checkpoint that names a hash still finds that hash at its seq: content edited below a
 * checkpoint, with every hash after it recomputed, no longer matches the head the checkpoint signed.
 * Run once the checkpoints' signatures are known to hold.
 */
export function checkSignedHashes(entries: readonly ChainedAuditEntry[], checkpoints: readonly AuditCheckpoint[]): Found {
  const bySeq = new Map(entries.map((entry) => [entry.seq, entry]));
  for (const checkpoint of checkpoints) {
    const entry = checkpoint.hash === undefined ? undefined : bySeq.get(checkpoint.seq);
    if (entry !== undefined && entry.hash !== checkpoint.hash) {
      return edited(entry, `the public hash chain up to seq ${entry.seq} is not the one its checkpoint signed`);
    }
  }
  return undefined;
}

function edited(entry: ChainedAuditEntry, detail: string): Found {
  return { found: { writer: entry.writer, seq: entry.seq, id: entry.id, kind: 'edited', detail }, at: entry.at };
}
