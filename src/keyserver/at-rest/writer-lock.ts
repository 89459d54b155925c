import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../config-error.js';

/** Who holds a writer lock, as written in the holder file beside it. */
export interface WriterHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO 8601, UTC. */
  readonly since: string;
  /** Random per acquisition: tells this holder from a later one with the same pid. */
  readonly id: string;
}

/** The lock of a store file: `ks.db` -> `ks.db.lock`. */
export function storeLockFile(store: string): string {
  return `${store}.lock`;
}

/** The lock of a gateway's data directory (its audit keys, witness and identity). */
export function directoryLockFile(dir: string): string {
  return join(dir, 'gateway.lock');
}

/**
 * One writer per store (docs/operations.md "One writer per store"). The lock is an exclusive SQLite
 * transaction held for the process's life on a small, empty lock database beside the store: the
 * kernel releases it when the process ends, a SIGKILL included, so no stale lock refuses the next
 * start; a second process (or a second opener in this one) is refused at once. The holder's pid, host
 * and start are written to a plain file beside the lock (`<lock>.holder`), only to be named in the
 * refusal. The lock file is never removed: a process that still had the old one open could otherwise
 * hold it beside a newcomer holding a new one.
 */
export class WriterLock {
  readonly #file: string;
  readonly #db: Database.Database;
  readonly #holder: WriterHolder;
  readonly #inode: { dev: number; ino: number };
  #conflict: string | undefined;

  private constructor(file: string, db: Database.Database, holder: WriterHolder) {
    this.#file = file;
    this.#db = db;
    this.#holder = holder;
    const { dev, ino } = statSync(file);
    this.#inode = { dev, ino };
  }

  /**
   * Takes the lock `file` for this process, or throws a ConfigError of one line: `<setting>: <store> is
   * held by pid N on host H since T`, naming the process that holds it.
   */
  static acquire(file: string, setting: string, store: string, now: Date = new Date()): WriterLock {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Created before SQLite opens it, so that it is the owner's alone; opening and closing it here
    // holds no lock yet (a descriptor closed later would drop this process's POSIX locks on it).
    closeSync(openSync(file, 'a', 0o600));
    const db = new Database(file, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code !== 'SQLITE_BUSY')
        throw new ConfigError(`${setting}: writer lock ${file}: ${(error as Error).message}`);
      throw new ConfigError(`${setting}: ${store} is ${describeHolder(file)}; one process writes a store at a time`);
    }
    const holder: WriterHolder = { pid: process.pid, host: hostname(), since: now.toISOString(), id: randomBytes(8).toString('hex') };
    try {
      const temporary = `${holderFile(file)}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: 0o644 });
      renameSync(temporary, holderFile(file));
      return new WriterLock(file, db, holder);
    } catch (error) {
      db.close();
      throw new ConfigError(`${setting}: writer lock ${file}: ${(error as Error).message}`);
    }
  }

  get file(): string {
    return this.#file;
  }

  /**
   * Undefined while the lock file on disk is still the one this process holds; else one line saying it
   * was removed or replaced (another process may then have taken a lock of its own and write the
   * store too). Once seen, the conflict is answered on every later call: writes may have overlapped.
   */
  conflict(): string | undefined {
    if (this.#conflict !== undefined || !this.#db.open) return this.#conflict;
    let now: { dev: number; ino: number } | undefined;
    try {
      now = statSync(this.#file);
    } catch {
      now = undefined;
    }
    if (now !== undefined && now.dev === this.#inode.dev && now.ino === this.#inode.ino) return undefined;
    const other = readHolder(this.#file);
    const by = other !== undefined && other.id !== this.#holder.id ? `; now ${holderLine(other)}` : '';
    this.#conflict = `writer lock ${this.#file} was ${now === undefined ? 'removed' : 'replaced'} under this process${by}`;
    return this.#conflict;
  }

  /** Removes the holder file (while the lock is still held, so that it is ours) and releases the lock. */
  release(): void {
    if (!this.#db.open) return;
    try {
      if (readHolder(this.#file)?.id === this.#holder.id) unlinkSync(holderFile(this.#file));
    } catch {
      // gone already: nothing to remove
    }
    this.#db.close();
  }
}

function holderFile(file: string): string {
  return `${file}.holder`;
}

function readHolder(file: string): WriterHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(holderFile(file), 'utf8')) as Partial<WriterHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string' || typeof parsed.since !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, since: parsed.since, id: String(parsed.id) };
  } catch {
    return undefined;
  }
}

function holderLine(holder: WriterHolder): string {
  return `held by pid ${holder.pid} on host ${holder.host} since ${holder.since}`;
}

/** The holder as the refusal names it; its file may be missing for an instant while a holder starts. */
function describeHolder(file: string): string {
  const holder = readHolder(file);
  return holder === undefined
    ? `held by another process (its holder file ${holderFile(file)} is missing or unreadable)`
    : holderLine(holder);
}
