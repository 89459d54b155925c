import type { AuditChainRange, AuditChainSlice, AuditCheckpoint, AuditEntry } from '../../domain/audit/audit-entry.js';

/**
 * The range of chains held in memory, as the SQL stores select it (audit-sql.ts `chainRangeSql`): per
 * writer, every entry from its first seq stamped in the range to its last; unchained entries and
 * checkpoints stamped in the range.
 */
export function sliceOfChains(
  entries: readonly AuditEntry[],
  checkpoints: readonly AuditCheckpoint[],
  range: AuditChainRange,
): AuditChainSlice {
  const inRange = (at: number) => (range.from === undefined || at >= range.from) && (range.to === undefined || at <= range.to);
  const bounds = new Map<string, { lo: number; hi: number }>();
  for (const entry of entries) {
    if (entry.writer === undefined || entry.seq === undefined || !inRange(entry.at)) continue;
    const known = bounds.get(entry.writer);
    bounds.set(entry.writer, { lo: Math.min(known?.lo ?? entry.seq, entry.seq), hi: Math.max(known?.hi ?? entry.seq, entry.seq) });
  }
  const selected = entries.filter((entry) => {
    if (entry.writer === undefined || entry.seq === undefined) return inRange(entry.at);
    const bound = bounds.get(entry.writer);
    return bound !== undefined && entry.seq >= bound.lo && entry.seq <= bound.hi;
  });
  return {
    entries: selected.map((entry) => ({ ...entry })),
    checkpoints: checkpoints.filter((checkpoint) => inRange(checkpoint.at)).map((checkpoint) => ({ ...checkpoint })),
    partial: range.from !== undefined,
  };
}
