import type { AuditChainRange, AuditChainSlice, AuditCheckpoint, AuditEntry } from '../domain/audit/audit-entry.js';

/**
 * The export format of `keygate audit export --format jsonl`: a header line
 * `{"export":{"format":"keygate-audit/1","from"?,"to"?}}`, then one line per entry (every field,
 * chain fields included, `at` as an ISO 8601 instant with milliseconds), then one line
 * `{"checkpoint":{...}}` per checkpoint. `keygate audit verify --file` reads it back.
 */
export const EXPORT_FORMAT = 'keygate-audit/1';

export function* exportLines(slice: AuditChainSlice, range: AuditChainRange): Generator<string> {
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  yield JSON.stringify({ export: { format: EXPORT_FORMAT, from: iso(range.from), to: iso(range.to) } });
  const ordered = [...slice.entries].sort((a, b) => (a.writer ?? '').localeCompare(b.writer ?? '') || (a.seq ?? 0) - (b.seq ?? 0));
  for (const entry of ordered) yield JSON.stringify({ ...entry, at: iso(entry.at) });
  for (const checkpoint of slice.checkpoints) yield JSON.stringify({ checkpoint: { ...checkpoint, at: iso(checkpoint.at) } });
}

/** Reads an export back; a line that is not one of the three shapes is an error naming its number. */
export function parseExport(text: string): AuditChainSlice {
  const entries: AuditEntry[] = [];
  const checkpoints: AuditCheckpoint[] = [];
  let partial = false;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const fail = (why: string) => new Error(`line ${index + 1}: ${why}`);
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw fail('not JSON');
    }
    if (typeof value !== 'object' || value === null) throw fail('not an object');
    if ('export' in value) {
      const header = value.export as { format?: unknown; from?: unknown };
      if (header.format !== EXPORT_FORMAT) throw fail(`not a ${EXPORT_FORMAT} export`);
      partial = typeof header.from === 'string';
    } else if ('checkpoint' in value) {
      const checkpoint = value.checkpoint as AuditCheckpoint & { at: unknown };
      checkpoints.push({ ...checkpoint, at: instant(checkpoint.at, fail) });
    } else if (typeof value.entry === 'string' && typeof value.id === 'string') {
      entries.push({ ...(value as unknown as AuditEntry), at: instant(value.at, fail) });
    } else {
      throw fail('neither an entry nor a checkpoint');
    }
  });
  return { entries, checkpoints, partial };
}

function instant(value: unknown, fail: (why: string) => Error): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw fail('at: not an ISO 8601 instant');
  return ms;
}
