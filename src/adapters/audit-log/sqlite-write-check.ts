import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { AuditUnavailableError } from '../../domain/audit/audit.errors.js';

/**
 * The probe's own table, created idempotently beside the schema (not a migration): one row of about a
 * record's size is written and the older ones deleted, so a probe needs room the way an append does.
 */
const PROBE_TABLE = 'CREATE TABLE IF NOT EXISTS audit_write_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, pad BLOB NOT NULL)';

/**
 * What the health check asks of the SQLite audit store: that the file it writes is still
 * the one at its path (not deleted, not replaced), and that a write through the same commit path goes
 * to disk now (a failed append marks the store down at once through the health signal; this probe is
 * what brings it back). A read alone answered `ok` while a
 * full disk refused every record.
 */
export class SqliteWriteCheck {
  readonly #file: string;
  readonly #identity: string | undefined;
  readonly #probe: () => void;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    this.#identity = file === ':memory:' ? undefined : identityOf(file);
    db.exec(PROBE_TABLE);
    const insert = db.prepare('INSERT INTO audit_write_probe (at, pad) VALUES (?, zeroblob(512))');
    const prune = db.prepare('DELETE FROM audit_write_probe WHERE id < ?');
    this.#probe = () => {
      const { lastInsertRowid } = insert.run(Date.now());
      prune.run(lastInsertRowid);
    };
  }

  /** Throws AuditUnavailableError naming what is wrong; `commit` runs the probe through the group commit. */
  async check(commit: (write: () => unknown) => Promise<unknown>): Promise<void> {
    this.assertSameFile();
    await commit(this.#probe);
  }

  /**
   * Throws AuditUnavailableError when the open file is no longer the one at its path (deleted or
   * replaced): a commit into it would be acknowledged and then lost. One stat, run before each group
   * commit, so no entry is committed to a file nobody will read again.
   */
  assertSameFile(): void {
    if (this.#identity === undefined) return;
    let now: string | undefined;
    try {
      now = identityOf(this.#file);
    } catch {
      throw new AuditUnavailableError(`the audit database file ${this.#file} was deleted`);
    }
    if (now !== this.#identity) throw new AuditUnavailableError(`the audit database file ${this.#file} was replaced`);
  }
}

function identityOf(file: string): string {
  const stat = statSync(file);
  return `${stat.dev}:${stat.ino}`;
}
