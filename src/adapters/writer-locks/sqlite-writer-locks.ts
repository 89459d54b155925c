import { WriterLock } from '../../keyserver/at-rest/writer-lock.js';
import type { Logger } from '../../ports/logger.port.js';
import type { WriterLocks } from '../../ports/writer-locks.port.js';

interface Held {
  readonly lock: WriterLock;
  readonly setting: string;
  readonly store: string;
}

/**
 * The gateway's writer locks: the key server's own lock module (an exclusive transaction on a small
 * SQLite lock database per store, with the holder named in a file beside it), one per store held.
 * A conflict is answered in words fit for an unauthenticated health probe (which store, not its path);
 * its details (the lock file, the process now holding it) go to the log, once.
 */
export class SqliteWriterLocks implements WriterLocks {
  readonly #held: Held[] = [];
  readonly #now: () => number;
  readonly #logger: Logger;
  #conflict: string | undefined;

  constructor(now: () => number, logger: Logger) {
    this.#now = now;
    this.#logger = logger;
  }

  /** Takes the lock `file` of `store`, or throws a ConfigError naming `setting` and the holder. */
  hold(file: string, setting: string, store: string): void {
    this.#held.push({ lock: WriterLock.acquire(file, setting, store, new Date(this.#now())), setting, store });
  }

  conflict(): string | undefined {
    if (this.#conflict !== undefined) return this.#conflict;
    for (const { lock, setting, store } of this.#held) {
      const detail = lock.conflict();
      if (detail === undefined) continue;
      this.#logger.error('writer conflict: another process may write this store', { store, detail });
      this.#conflict = `${setting}: the store's writer lock was removed or replaced; another process may write it`;
      return this.#conflict;
    }
    return undefined;
  }

  /** Releases the locks, the last taken first. */
  close(): void {
    for (const { lock } of this.#held.splice(0).reverse()) lock.release();
  }
}
