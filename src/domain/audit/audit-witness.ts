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
 * What the witnessed heads say of chains that are otherwise whole: a writer whose stored chain ends
 * below its witnessed head is `truncated`; a different entry at the witnessed seq is `edited`. Only for
 * a read of the whole log.
 */
export function witnessBreak(witnessed: readonly WitnessedHead[], walkOf: (writer: string) => WitnessedWalk | undefined): WitnessBreak | undefined {
  for (const head of witnessed) {
    const walk = walkOf(head.writer);
    const last = walk?.lastSeq ?? 0;
    if (last < head.seq) {
      const ends = last === 0 ? 'has no entries' : `ends at seq ${last}`;
      return {
        writer: head.writer,
        seq: head.seq,
        kind: 'truncated',
        detail: `writer ${head.writer} ${ends}, but its witness saw seq ${head.seq}: the newest entries were removed`,
      };
    }
    const atSeq = walk?.atWitnessedSeq.get(head.seq);
    if (atSeq !== undefined && head.mac !== '' && atSeq.mac !== head.mac) {
      return { writer: head.writer, seq: head.seq, id: atSeq.id, kind: 'edited', detail: `the entry at seq ${head.seq} is not the one its witness saw` };
    }
  }
  return undefined;
}
