import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { WitnessedHead } from '../../domain/audit/audit-witness.js';
import type { AuditWitness } from '../../ports/audit-witness.port.js';

/** The head file's name in the data directory, beside the audit keys. */
export const AUDIT_HEAD_FILE = 'audit-head.json';

/**
 * The witness kept beside the audit keys in the data directory (0600): one JSON object per writer,
 * rewritten whole after every group commit (`recordNow`). The audit database may live elsewhere, and whoever
 * can rewrite it cannot rewrite this file without the directory that also holds the MAC key.
 */
export class FileAuditWitness implements AuditWitness {
  readonly #file: string;
  /**
   * The heads as this witness last wrote them: after its first write it is the file's only writer (the
   * data directory's writer lock), so a commit rewrites them without reading the file again.
   */
  #written: WitnessedHead[] | undefined;

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
   * The same, synchronously (called right after each group commit, before its writes are answered):
   * a few microseconds, so every commit can afford it. The first write of a file is made aside,
   * flushed (fsync) and renamed into place; later ones overwrite it in place, one write of under a
   * block, never shorter than the file (padded with spaces, which JSON ignores), so a reader finds the
   * old heads or the new ones and no stale tail. Not flushed per commit: the head survives the process
   * being killed (it is in the kernel's cache), and a power cut may leave an earlier head, as recent as
   * the file system last wrote back (docs/operations.md "What is chained, and with which keys").
   */
  recordNow(head: WitnessedHead): void {
    const heads = [
      ...(this.#written ?? this.headsNow()).filter((known) => known.writer !== head.writer),
      { writer: head.writer, seq: head.seq, mac: head.mac },
    ];
    const text = Buffer.from(`${JSON.stringify(heads)}\n`, 'utf8');
    if (!existsSync(this.#file)) {
      this.#create(text);
      this.#written = heads;
      return;
    }
    const fd = openSync(this.#file, 'r+');
    try {
      const size = fstatSync(fd).size;
      const padded = text.length >= size ? text : Buffer.concat([text, Buffer.alloc(size - text.length, 0x20)]);
      writeSync(fd, padded, 0, padded.length, 0);
    } finally {
      closeSync(fd);
    }
    this.#written = heads;
  }

  #create(text: Buffer): void {
    const aside = `${this.#file}.${process.pid}.tmp`;
    const fd = openSync(aside, 'w', 0o600);
    try {
      writeSync(fd, text);
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
