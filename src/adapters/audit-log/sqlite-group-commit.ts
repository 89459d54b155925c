import type Database from 'better-sqlite3';

/** A write waiting for the next commit. */
interface QueuedWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { readonly value: unknown; readonly error?: undefined } | { readonly error: unknown };

/**
 * Group commit for a synchronous SQLite connection: writes queued in the same turn of the event loop are
 * committed in one transaction, so one fsync serves them all. A write resolves only once the commit
 * holding it is on disk. A data error (a constraint, a value SQLite cannot bind or hold) undoes its own
 * statement and rejects that write alone, so one bad row never takes the others down; any other
 * failure (the disk, the file, a lock) aborts the commit and rejects every write in it (nothing of it
 * was stored).
 */
export class SqliteGroupCommit {
  readonly #db: Database.Database;
  readonly #commit: Database.Transaction<(batch: readonly QueuedWrite[]) => Outcome[]>;
  readonly #failure: (error: unknown) => unknown;
  readonly #committed: (() => void) | undefined;
  #queue: QueuedWrite[] = [];

  /**
   * `failure` turns a store failure into the error every write of a failed commit is rejected with.
   * `hooks` run inside each commit's transaction, before its first write and after its last (the audit
   * chain reads its head there and writes a due checkpoint); one that throws aborts the commit.
   * `committed` runs once the transaction is committed, before any write resolves.
   */
  constructor(
    db: Database.Database,
    failure: (error: unknown) => unknown,
    hooks: { before?: () => void; after?: () => void; committed?: () => void } = {},
  ) {
    this.#db = db;
    this.#failure = failure;
    this.#committed = hooks.committed;
    this.#commit = db.transaction((batch: readonly QueuedWrite[]) => {
      hooks.before?.();
      const outcomes = batch.map((queued) => attempt(db, queued.write));
      hooks.after?.();
      return outcomes;
    });
  }

  /** Queues a write; resolves with its result after the commit, rejects with its own or the commit's error. */
  run(write: () => unknown): Promise<unknown> {
    if (!this.#db.open) return Promise.reject(this.#failure(new Error('the database is closed')));
    return new Promise((resolve, reject) => {
      this.#queue.push({ write, resolve, reject });
      if (this.#queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (also called before the connection closes). */
  flush(): void {
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.#commit.immediate(batch);
    } catch (error) {
      const failure = this.#failure(error);
      for (const queued of batch) queued.reject(failure);
      return;
    }
    this.#committed?.();
    batch.forEach((queued, i) => {
      const outcome = outcomes[i]!;
      if ('value' in outcome) queued.resolve(outcome.value);
      else queued.reject(outcome.error);
    });
  }
}

function attempt(db: Database.Database, write: () => unknown): Outcome {
  try {
    return { value: write() };
  } catch (error) {
    // A data error that took the whole transaction with it (RAISE(ROLLBACK)) fails the commit.
    if (!isDataError(error) || !db.inTransaction) throw error;
    return { error };
  }
}

/** SQLite's result codes of a statement refused for the data it carried, the transaction left open. */
const DATA_ERRORS = new Set(['SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_RANGE']);

/**
 * A write's own data error: a constraint, a value too big or of the wrong type, or one better-sqlite3
 * refuses to bind before the statement runs (a TypeError or RangeError without a SQLite code).
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code.startsWith('SQLITE_CONSTRAINT') || DATA_ERRORS.has(code);
  return error instanceof TypeError || error instanceof RangeError;
}
