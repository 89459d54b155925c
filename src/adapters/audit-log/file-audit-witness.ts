import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { WitnessedHead } from '../../domain/audit/audit-witness.js';
import type { AuditWitness } from '../../ports/audit-witness.port.js';

/** The head file's name in the data directory, beside the audit keys. */
export const AUDIT_HEAD_FILE = 'audit-head.json';

/**
 * The witness kept beside the audit keys in the data directory (0600): one JSON object per writer,
 * replaced whole (written aside, then renamed). The audit database may live elsewhere, and whoever
 * can rewrite it cannot rewrite this file without the directory that also holds the MAC key.
 */
export class FileAuditWitness implements AuditWitness {
  readonly #file: string;

  constructor(dataDir: string) {
    this.#file = join(dataDir, AUDIT_HEAD_FILE);
  }

  get file(): string {
    return this.#file;
  }

  async record(head: WitnessedHead): Promise<void> {
    this.recordNow(head);
  }

  /**
   * The same, synchronously (called right after each group commit, before its writes are answered).
   * The new file is on disk (fsync) before it replaces the old one: after a crash the file holds
   * either head, never a torn one.
   */
  recordNow(head: WitnessedHead): void {
    const heads = this.headsNow().filter((known) => known.writer !== head.writer);
    const aside = `${this.#file}.${process.pid}.tmp`;
    const fd = openSync(aside, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify([...heads, { writer: head.writer, seq: head.seq, mac: head.mac }])}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(aside, this.#file);
  }

  async heads(): Promise<readonly WitnessedHead[]> {
    return this.headsNow();
  }

  /** The heads in the file; none when there is no file. A file that is not a list of heads throws. */
  headsNow(): WitnessedHead[] {
    if (!existsSync(this.#file)) return [];
    const parsed: unknown = JSON.parse(readFileSync(this.#file, 'utf8'));
    if (!Array.isArray(parsed) || !parsed.every(isHead)) throw new Error(`${this.#file} does not hold audit chain heads`);
    return parsed;
  }
}

function isHead(value: unknown): value is WitnessedHead {
  const head = value as Partial<WitnessedHead> | null;
  return typeof head?.writer === 'string' && Number.isSafeInteger(head.seq) && typeof head.mac === 'string';
}
