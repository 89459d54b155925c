import type Database from 'better-sqlite3';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditChain } from '../../domain/audit/audit-chain.js';
import type { AuditEntry, ChainedAuditEntry } from '../../domain/audit/audit-entry.js';
import { CHECKPOINT_COLUMNS, checkpointValues, ENTRY_COLUMNS, type EntryRow, entryFromRow, entryValues } from './audit-sql.js';

const placeholders = (columns: string) =>
  columns
    .split(',')
    .map(() => '?')
    .join(', ');

/**
 * Where a SQLite store's entries are inserted, each sealed on the writer's chain (none: unchained).
 * Every method but `closingCheckpoint` runs inside a group commit's transaction: `begin` before its
 * first write, `store` per write, `end` after the last (a due checkpoint), `failed` when it aborted.
 * The head is this process's own, read from the file only at open and after a failed commit: rows
 * removed behind its back leave a gap the verifier reports. A head read back below the one last
 * committed (newest rows deleted, then a commit made to fail) is refused by the chain (`restore`),
 * rather than quietly re-extended from what is left.
 */
export class SqliteChainWriter {
  readonly #db: Database.Database;
  readonly #chain: AuditChain | undefined;
  readonly #insert: Database.Statement;
  readonly #insertCheckpoint: Database.Statement;
  readonly #head: Database.Statement;
  readonly #checkpointed: Database.Statement;
  #stale = true;

  constructor(db: Database.Database, chain: AuditChain | undefined) {
    this.#db = db;
    this.#chain = chain;
    this.#insert = db.prepare(`INSERT INTO audit_entry (${ENTRY_COLUMNS}) VALUES (${placeholders(ENTRY_COLUMNS)})`);
    this.#insertCheckpoint = db.prepare(
      `INSERT INTO audit_checkpoint (${CHECKPOINT_COLUMNS}) VALUES (${placeholders(CHECKPOINT_COLUMNS)})`,
    );
    this.#head = db.prepare('SELECT seq, mac, hash FROM audit_entry WHERE writer = ? ORDER BY seq DESC LIMIT 1');
    this.#checkpointed = db.prepare('SELECT MAX(seq) AS seq FROM audit_checkpoint WHERE writer = ?');
  }

  begin(): void {
    if (this.#chain === undefined || !this.#stale) return;
    const head = this.#head.get(this.#chain.writer) as { seq: number; mac: string; hash: string | null } | undefined;
    const checkpointed = this.#checkpointed.get(this.#chain.writer) as { seq: number | null };
    const restored =
      head === undefined ? { seq: 0, mac: '' } : { seq: head.seq, mac: head.mac, ...(head.hash === null ? {} : { hash: head.hash }) };
    this.#chain.restore(restored, checkpointed.seq ?? 0);
    this.#stale = false;
  }

  /**
   * Gives this writer's entries written before the hash chain their public hash, where the MAC holds
   * (`AuditChain.backfillHashes`); one immediate transaction at open.
   */
  backfillHashes(): number {
    const chain = this.#chain;
    if (chain === undefined) return 0;
    const missing = this.#db.prepare('SELECT 1 FROM audit_entry WHERE writer = ? AND hash IS NULL LIMIT 1');
    if (missing.get(chain.writer) === undefined) return 0;
    const read = this.#db.prepare(`SELECT ${ENTRY_COLUMNS} FROM audit_entry WHERE writer = ? ORDER BY seq`);
    const update = this.#db.prepare('UPDATE audit_entry SET hash = ? WHERE writer = ? AND seq = ?');
    return this.#db
      .transaction(() => {
        const rows = read.all(chain.writer) as EntryRow[];
        const filled = chain.backfillHashes(rows.map((row) => entryFromRow(row, Number(row.at)) as ChainedAuditEntry));
        for (const { seq, hash } of filled) update.run(hash, chain.writer, seq);
        return filled.length;
      })
      .immediate();
  }

  /**
   * Reads the head at open (in a read transaction of its own), so a regressed chain is refused then.
   * The first commit reads it again: another process may write as this writer meanwhile.
   */
  resume(): void {
    this.#db.transaction(() => this.begin())();
    this.#stale = true;
  }

  /** Seals the entry on the head, inserts it, and only then moves the head. */
  store(entry: AuditEntry): void {
    const chain = this.#chain;
    const stored = chain === undefined ? entry : chain.seal(entry);
    try {
      this.#insert.run(...entryValues(stored, (ms) => ms));
    } catch (error) {
      // Another process wrote as this writer: read the head again before the next commit; not a duplicate id.
      if (!String((error as Error).message).includes('audit_entry.seq')) throw error;
      this.#stale = true;
      throw new AuditUnavailableError('another process writes the audit log as this writer', error);
    }
    if (chain !== undefined) chain.advance(stored as ReturnType<AuditChain['seal']>);
  }

  end(): void {
    if (this.#chain?.checkpointDue()) this.#writeCheckpoint();
  }

  failed(): void {
    this.#stale = true;
  }

  /** After the commit: what was sealed is in the file, and the chain must never be found below it. */
  committed(): void {
    this.#chain?.committed();
  }

  /** Outside any commit, before the file closes: a last signed checkpoint of the head (best effort). */
  closingCheckpoint(): void {
    if (this.#chain === undefined) return;
    try {
      this.#db
        .transaction(() => {
          this.begin();
          this.#writeCheckpoint();
        })
        .immediate();
      this.#chain.committed();
    } catch {
      // The head stays unsigned: a verifier still checks every link up to it.
    }
  }

  #writeCheckpoint(): void {
    const checkpoint = this.#chain!.checkpoint();
    if (checkpoint === undefined) return;
    this.#insertCheckpoint.run(...checkpointValues(checkpoint, (ms) => ms));
    this.#chain!.checkpointed(checkpoint);
  }
}
