import type { AuditEntry } from './audit-entry.js';

/**
 * A writer's chain head as a witness outside the audit store last saw it: the store must still hold
 * that entry (same seq, same MAC). Deleting the newest entries together with every checkpoint above
 * them leaves a chain that links and verifies; only a head kept elsewhere shows it is shorter.
 */
export interface WitnessedHead {
  readonly writer: string;
  readonly seq: number;
  readonly mac: string;
}

/** A break the witnessed heads show, in the verifier's `AuditBreak` shape. */
interface WitnessBreak {
  readonly writer: string;
  readonly seq: number;
  readonly id?: string;
  readonly kind: 'truncated' | 'edited';
  readonly detail: string;
}

/** What the verifier learnt of one writer's chain: where it ends, and the entries at witnessed seqs. */
interface WitnessedWalk {
  readonly lastSeq: number;
  readonly atWitnessedSeq: ReadonlyMap<number, Pick<AuditEntry, 'id' | 'mac'>>;
}

/**
 * What the witnessed heads say of the chains: a writer whose stored chain ends below its witnessed
 * head is `truncated` (the entries between its last one and the witnessed seq were removed); a
 * different entry at the witnessed seq is `edited`. One break at most per head. Only for a read of
 * the whole log.
 */
export function witnessBreaks(witnessed: readonly WitnessedHead[], walkOf: (writer: string) => WitnessedWalk | undefined): WitnessBreak[] {
  const found: WitnessBreak[] = [];
  for (const head of witnessed) {
    const walk = walkOf(head.writer);
    const last = walk?.lastSeq ?? 0;
    if (last < head.seq) {
      const ends = last === 0 ? 'has no entries' : `ends at seq ${last}`;
      const lost = last + 1 === head.seq ? `seq ${head.seq} was` : `seq ${last + 1} to ${head.seq} were`;
      found.push({
        writer: head.writer,
        seq: head.seq,
        kind: 'truncated',
        detail: `writer ${head.writer} ${ends}, but its witness saw seq ${head.seq}: ${lost} removed`,
      });
      continue;
    }
    const atSeq = walk?.atWitnessedSeq.get(head.seq);
    if (atSeq !== undefined && head.mac !== '' && atSeq.mac !== head.mac) {
      found.push({
        writer: head.writer,
        seq: head.seq,
        id: atSeq.id,
        kind: 'edited',
        detail: `the entry at seq ${head.seq} is not the one its witness saw`,
      });
    }
  }
  return found;
}
