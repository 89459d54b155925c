import type pg from 'pg';
import type { AuditChain } from '../../domain/audit/audit-chain.js';
import type { AuditEntry, ChainedAuditEntry } from '../../domain/audit/audit-entry.js';
import { CHECKPOINT_COLUMNS, checkpointValues, ENTRY_COLUMNS, type EntryRow, entryFromRow, entryValues } from './audit-sql.js';

type Run = (sql: string, params: unknown[]) => Promise<pg.QueryResult>;

interface Queued {
  /** Absent: a request for a checkpoint of the head. */
  readonly entry: AuditEntry | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const at = (ms: number) => new Date(ms);
const failureOf = (error: unknown) =>
  (error as { cause?: { code?: string; constraint?: string } }).cause ?? (error as { code?: string; constraint?: string });
/**
 * An error of the data a statement carried, which left the table as it was: a data exception (class
 * 22), an integrity violation (23: a duplicate id, say) other than a (writer, seq) collision, which is
 * another process writing as this writer, or a program limit (54). A batch
 * refused for one is retried row by row; a connection or server failure is not (its effect is unknown).
 */
const isDataError = (error: unknown) => {
  const { code, constraint } = failureOf(error);
  if (typeof code !== 'string' || constraint === 'audit_entry_chain') return false;
  return code.startsWith('22') || code.startsWith('23') || code.startsWith('54');
};

/**
 * The one place a gateway's entries enter PostgreSQL, so its chain is extended in order: entries queued
 * while a write is in flight go together in the next multi-row INSERT (one round trip for all), each
 * sealed on the head left by the one before. The head moves only once the INSERT succeeded; after a
 * failure of unknown effect it is read again from the table before the next write, and a head read
 * back below the one last committed is refused (`AuditChain.restore`): rows were deleted. A batch refused for
 * a data error (a duplicate id, a value the table refuses) is retried entry by entry, so only that entry fails. A due checkpoint is written
 * right after the batch that made it due.
 */
export class PostgresEntryWriter {
  readonly #run: Run;
  readonly #tables: { entries: string; checkpoints: string };
  readonly #chain: AuditChain | undefined;
  #queue: Queued[] = [];
  #busy = false;
  #stale = true;

  constructor(run: Run, tables: { entries: string; checkpoints: string }, chain: AuditChain | undefined) {
    this.#run = run;
    this.#tables = tables;
    this.#chain = chain;
  }

  /** Resolves once the entry is stored; rejects with the store's error (a duplicate id: 23505). */
  write(entry: AuditEntry | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      if (!this.#busy) void this.#drain();
    });
  }

  /** Signs and stores a checkpoint of the head now (when anything was appended since the last). */
  async checkpoint(): Promise<void> {
    if (this.#chain === undefined) return;
    await this.write(undefined).catch(() => undefined);
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      const writes = batch.filter((queued): queued is Queued & { entry: AuditEntry } => queued.entry !== undefined);
      const forced = writes.length < batch.length;
      try {
        await this.#refreshHead();
        await this.#insert(writes);
        await this.#checkpointIfDue(forced);
        for (const queued of batch) if (queued.entry === undefined) queued.resolve();
      } catch (error) {
        this.#stale = true;
        for (const queued of batch) queued.reject(error);
      }
    }
    this.#busy = false;
  }

  /**
   * All in one INSERT; on a data error (a duplicate id, a value the table refuses), one by one, so
   * that only the row at fault fails and every other write of the batch is stored.
   */
  async #insert(batch: readonly (Queued & { entry: AuditEntry })[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.#insertRows(batch.map((queued) => queued.entry));
      for (const queued of batch) queued.resolve();
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const queued of batch) {
        await this.#insertRows([queued.entry]).then(queued.resolve, (failure: unknown) => {
          if (!isDataError(failure)) this.#stale = true;
          queued.reject(failure);
        });
        await this.#refreshHead();
      }
    }
  }

  async #insertRows(entries: readonly AuditEntry[]): Promise<void> {
    const chain = this.#chain;
    let head = chain?.head;
    const rows = entries.map((entry) => {
      if (chain === undefined) return entry;
      const sealed = chain.seal(entry, head);
      // The whole head, its public hash included: the next row's hash chains from this one's.
      head = { seq: sealed.seq, mac: sealed.mac, hash: sealed.hash! };
      return sealed;
    });
    const params: unknown[] = [];
    const tuples = rows.map(
      (row) =>
        `(${entryValues(row, at)
          .map((value) => `$${params.push(value)}`)
          .join(', ')})`,
    );
    await this.#run(`INSERT INTO ${this.#tables.entries} (${ENTRY_COLUMNS}) VALUES ${tuples.join(', ')}`, params);
    if (chain !== undefined && rows.length > 0) {
      chain.advance(rows[rows.length - 1] as ReturnType<AuditChain['seal']>);
      // One statement, committed on its own: the chain must never be found below this head again.
      chain.committed();
    }
  }

  /**
   * Gives this writer's entries written before the hash chain their public hash, where the MAC holds
   * (`AuditChain.backfillHashes`); at open, before the first write.
   */
  async backfillHashes(): Promise<number> {
    const chain = this.#chain;
    if (chain === undefined) return 0;
    const missing = await this.#run(`SELECT 1 FROM ${this.#tables.entries} WHERE writer = $1 AND hash IS NULL LIMIT 1`, [chain.writer]);
    if (missing.rowCount === 0) return 0;
    const rows = await this.#run(`SELECT ${ENTRY_COLUMNS} FROM ${this.#tables.entries} WHERE writer = $1 ORDER BY seq`, [chain.writer]);
    const entries = (rows.rows as EntryRow[]).map((row) => entryFromRow(row, (row.at as Date).getTime()) as ChainedAuditEntry);
    const filled = chain.backfillHashes(entries);
    if (filled.length === 0) return 0;
    // One statement: every hash or none.
    await this.#run(
      `UPDATE ${this.#tables.entries} e SET hash = f.hash FROM unnest($1::bigint[], $2::text[]) AS f(seq, hash) WHERE e.writer = $3 AND e.seq = f.seq`,
      [filled.map((f) => f.seq), filled.map((f) => f.hash), chain.writer],
    );
    return filled.length;
  }

  /**
   * Reads the head now (at open), so a chain shorter than the witnessed one stops the boot. The first
   * write reads it again: another process may write as this writer meanwhile.
   */
  async resume(): Promise<void> {
    await this.#refreshHead();
    this.#stale = true;
  }

  async #refreshHead(): Promise<void> {
    const chain = this.#chain;
    if (chain === undefined || !this.#stale) return;
    const head = await this.#run(`SELECT seq, mac, hash FROM ${this.#tables.entries} WHERE writer = $1 ORDER BY seq DESC LIMIT 1`, [
      chain.writer,
    ]);
    const checkpointed = await this.#run(`SELECT MAX(seq) AS seq FROM ${this.#tables.checkpoints} WHERE writer = $1`, [chain.writer]);
    const row = head.rows[0] as { seq: string; mac: string; hash: string | null } | undefined;
    const restored =
      row === undefined ? { seq: 0, mac: '' } : { seq: Number(row.seq), mac: row.mac, ...(row.hash === null ? {} : { hash: row.hash }) };
    chain.restore(restored, Number(checkpointed.rows[0]?.seq ?? 0));
    this.#stale = false;
  }

  async #checkpointIfDue(forced: boolean): Promise<void> {
    const chain = this.#chain;
    if (chain === undefined || (!forced && !chain.checkpointDue())) return;
    const checkpoint = chain.checkpoint();
    if (checkpoint === undefined) return;
    const values = checkpointValues(checkpoint, at);
    await this.#run(
      `INSERT INTO ${this.#tables.checkpoints} (${CHECKPOINT_COLUMNS}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
    chain.checkpointed(checkpoint);
    chain.committed();
  }
}
