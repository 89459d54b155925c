import { token } from './token.js';

/**
 * The stores this gateway writes alone: its data directory, its SQLite audit database and the embedded
 * key server's store, each held by a lock the operating system releases when the process ends
 * (docs/operations.md "One writer per store"). A second process on one of them is refused at boot.
 *
 * Contract:
 * - `conflict` answers undefined while every lock this gateway took is still the one on disk, and
 *   otherwise one line (no secret) naming the lock file that was removed or replaced, and the process
 *   that now holds a lock there when it is known. Once a conflict is seen it is answered on every later
 *   call: writes may have overlapped. It is synchronous and cheap (a stat per lock): the health check
 *   calls it each round.
 * - `close` releases every lock; called once the stores are closed. Idempotent.
 */
export interface WriterLocks {
  conflict(): string | undefined;
  close(): void;
}

export const WRITER_LOCKS = token<WriterLocks>('WriterLocks');
