import type { AuditVerification } from './audit-verify.js';
import { isChained, type AuditEntry } from './audit-entry.js';

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

/**
 * Adds to a verification what the witnessed heads say: a writer whose stored chain ends below its
 * witnessed head is `truncated`; a different entry at the witnessed seq is `edited`. A break the
 * chains already showed is kept (it is the earlier one). Only for a read of the whole log.
 */
export function checkWitnessedHeads(verification: AuditVerification, entries: readonly AuditEntry[], witnessed: readonly WitnessedHead[]): AuditVerification {
  if (!verification.ok || witnessed.length === 0) return verification;
  for (const head of witnessed) {
    let last = 0;
    let atSeq: AuditEntry | undefined;
    for (const entry of entries) {
      if (!isChained(entry) || entry.writer !== head.writer) continue;
      if (entry.seq > last) last = entry.seq;
      if (entry.seq === head.seq) atSeq = entry;
    }
    if (last < head.seq) {
      const ends = last === 0 ? 'has no entries' : `ends at seq ${last}`;
      const detail = `writer ${head.writer} ${ends}, but its witness saw seq ${head.seq}: the newest entries were removed`;
      return { ...verification, ok: false, firstBreak: { writer: head.writer, seq: head.seq, kind: 'truncated', detail } };
    }
    if (atSeq !== undefined && head.mac !== '' && atSeq.mac !== head.mac) {
      const detail = `the entry at seq ${head.seq} is not the one its witness saw`;
      return { ...verification, ok: false, firstBreak: { writer: head.writer, seq: head.seq, id: atSeq.id, kind: 'edited', detail } };
    }
  }
  return verification;
}
