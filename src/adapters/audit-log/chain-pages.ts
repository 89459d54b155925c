import { AUDIT_CHAIN_PAGE_SIZE, type AuditChainPages, type AuditChainRange, type AuditEntry } from '../../domain/audit/audit-entry.js';
import { type CheckpointRow, chainRangeSql, checkpointFromRow, ENTRY_COLUMNS, type EntryRow, entryFromRow } from './audit-sql.js';

/** How a SQL store is read: its tables, its placeholders, its type for `at`, one statement's rows. */
export interface ChainSqlSource {
  readonly tables: { readonly entries: string; readonly checkpoints: string };
  /** Adds a parameter to the list and names its placeholder (`?` or `$n`). */
  readonly placeholder: (params: unknown[], value: unknown) => string;
  /** A time (ms since the epoch) as the store takes it, and as it answers it. */
  readonly toAt: (ms: number) => unknown;
  readonly fromAt: (at: unknown) => number;
  readonly rows: <R>(sql: string, params: unknown[]) => Promise<R[]>;
}

interface WriterBounds {
  readonly writer: string;
  readonly lo: number | string;
  readonly hi: number | string;
}

/**
 * The pages of `AuditLog.readChainPages` from a SQL store. Checkpoints are read first, then each
 * writer's seq bounds in the range: an entry stored after that is only more chain, never a checkpoint
 * without its entries. Every page is one indexed keyset read (by `at, id, entry` for the unchained rows, by
 * `writer, seq` for the chains), so a page costs the same at the end of a long log as at its start.
 */
export async function readSqlChainPages(
  source: ChainSqlSource,
  range: AuditChainRange,
  pageSize = AUDIT_CHAIN_PAGE_SIZE,
): Promise<AuditChainPages> {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize: expected a positive integer');
  const { placeholder, toAt, fromAt, rows, tables } = source;
  const sql = chainRangeSql(tables, range, placeholder, toAt);
  const checkpoints = (await rows<CheckpointRow>(sql.checkpoints.sql, sql.checkpoints.params)).map((row) =>
    checkpointFromRow(row, fromAt(row.at)),
  );
  const bounds = await writerBounds(source, range);
  const entries = (found: EntryRow[]) => found.map((row) => entryFromRow(row, fromAt(row.at)));

  async function* pages(): AsyncGenerator<readonly AuditEntry[]> {
    // An unchained pending entry and its outcome share id and may share at: the kind tells them apart.
    let after: { at: unknown; id: string; entry: string } | undefined;
    for (;;) {
      const params: unknown[] = [];
      const where = `writer IS NULL AND ${inRange(source, range, params)}${after ? ` AND (at, id, entry) > (${placeholder(params, after.at)}, ${placeholder(params, after.id)}, ${placeholder(params, after.entry)})` : ''}`;
      const page = await rows<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM ${tables.entries} WHERE ${where} ORDER BY at, id, entry LIMIT ${placeholder(params, pageSize)}`,
        params,
      );
      if (page.length > 0) yield entries(page);
      if (page.length < pageSize) break;
      const last = page[page.length - 1]!;
      after = { at: last.at, id: last.id, entry: last.entry };
    }
    for (const { writer, lo, hi } of bounds) {
      for (let last = Number(lo) - 1; last < Number(hi); ) {
        const params: unknown[] = [];
        const page = await rows<EntryRow>(
          `SELECT ${ENTRY_COLUMNS} FROM ${tables.entries} WHERE writer = ${placeholder(params, writer)} AND seq > ${placeholder(params, last)} AND seq <= ${placeholder(params, Number(hi))} ORDER BY seq LIMIT ${placeholder(params, pageSize)}`,
          params,
        );
        if (page.length === 0) break;
        yield entries(page);
        if (page.length < pageSize) break;
        last = Number(page[page.length - 1]!.seq);
      }
    }
  }
  return { checkpoints, partial: range.from !== undefined, pages: pages() };
}

/**
 * Each writer's first and last seq stamped in the range, writer by writer in name order. Index seeks on
 * (writer, seq), a few per writer, rather than one aggregate over every row: the read that starts a
 * verification stays as short as a page.
 */
async function writerBounds(source: ChainSqlSource, range: AuditChainRange): Promise<WriterBounds[]> {
  const { placeholder, rows, tables } = source;
  const bounds: WriterBounds[] = [];
  for (let previous: string | undefined; ; ) {
    const params: unknown[] = [];
    const after = previous === undefined ? 'writer IS NOT NULL' : `writer > ${placeholder(params, previous)}`;
    const writer = (await rows<{ writer: string | null }>(`SELECT MIN(writer) AS writer FROM ${tables.entries} WHERE ${after}`, params))[0]
      ?.writer;
    if (writer === null || writer === undefined) return bounds;
    previous = writer;
    const seq = async (aggregate: 'MIN' | 'MAX') => {
      const seqParams: unknown[] = [];
      const where = `writer = ${placeholder(seqParams, writer)} AND ${inRange(source, range, seqParams)}`;
      return (
        (await rows<{ seq: number | string | null }>(`SELECT ${aggregate}(seq) AS seq FROM ${tables.entries} WHERE ${where}`, seqParams))[0]
          ?.seq ?? null
      );
    };
    const lo = await seq('MIN');
    if (lo === null) continue;
    const hi = await seq('MAX');
    if (hi !== null) bounds.push({ writer, lo, hi });
  }
}

function inRange(source: ChainSqlSource, range: AuditChainRange, params: unknown[]): string {
  const bounds: string[] = [];
  if (range.from !== undefined) bounds.push(`at >= ${source.placeholder(params, source.toAt(range.from))}`);
  if (range.to !== undefined) bounds.push(`at <= ${source.placeholder(params, source.toAt(range.to))}`);
  return bounds.length === 0 ? '1 = 1' : bounds.join(' AND ');
}
