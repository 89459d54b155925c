import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BackupError } from './backup-error.js';

/**
 * Writes a backup readable by its owner only, atomically: a temporary file beside it, flushed, then
 * put in place in one step, so a crash leaves either no file or the whole one. Without `force` the
 * temporary file is linked to the name (the link fails if a file is there: an existing file, even one
 * made meanwhile, is never replaced); with `force` it is renamed over it.
 */
export function writeBackupFile(path: string, bytes: Buffer, force: boolean): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number;
  try {
    fd = openSync(temporary, 'wx', 0o600);
  } catch (error) {
    throw new BackupError(`${path}: cannot write beside it (${codeOf(error)})`);
  }
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw new BackupError(`${path}: cannot write it (${codeOf(error)})`);
  }
  closeSync(fd);
  try {
    if (force) renameSync(temporary, path);
    else linkSync(temporary, path);
  } catch (error) {
    throw new BackupError(
      codeOf(error) === 'EEXIST' ? `${path}: exists (--force replaces it)` : `${path}: cannot write it (${codeOf(error)})`,
    );
  } finally {
    // Linked, the temporary name goes; renamed, it is gone already; failed, it goes too.
    rmSync(temporary, { force: true });
  }
  syncDirectory(dirname(path));
}

export function readBackupFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new BackupError(`${path}: ${codeOf(error) === 'ENOENT' ? 'not found' : `cannot read it (${codeOf(error)})`}`);
  }
}

/** The new name is durable once its directory is flushed (where the platform allows it). */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not every platform opens a directory: the file itself is flushed already
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}
