import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, linkSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { CommandFailure, UsageError } from './command.js';

/** Where a file command's bytes go: a stream to write, then commit (it ended well) or discard. */
export interface Output {
  readonly stream: WritableStream<Uint8Array>;
  /** The bytes written so far. */
  readonly written: () => number;
  /** After the stream ended without an error: the file synced and moved into place. */
  commit(): Promise<void>;
  /** Called whatever happened, after commit too: nothing staged is left behind. */
  discard(): Promise<void>;
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

/** IN as a stream, `-` being standard input; a file that cannot be opened is refused before anything is asked. */
export function inputStream(path: string, command: string): ReadableStream<Uint8Array> {
  if (path === '-') return Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`${command}: cannot read ${path} (${errno(error)})`);
  }
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new UsageError(`${command}: cannot read ${path} (EISDIR)`);
  }
  return Readable.toWeb(createReadStream(path, { fd })) as ReadableStream<Uint8Array>;
}

/**
 * OUT as a stream: standard output for `-`, else a new file of mode 0600 beside OUT, made before the
 * gateway is asked (so a folder that cannot take it refuses first) and moved into place by commit only.
 * Without `force` an existing OUT is refused, and one that appears meanwhile is still never replaced:
 * commit links the file, and a link fails on an existing name. An OUT that is not a regular file is refused.
 */
export async function stagedOutput(path: string, force: boolean, command: string): Promise<Output> {
  if (path === '-') return standardOutput(command);
  const existing = statSync(path, { throwIfNoEntry: false });
  // A device or a pipe is never replaced by a file (as root, --force would put one where /dev/null was).
  if (existing !== undefined && !existing.isFile())
    throw new UsageError(`${command}: ${path} is not a regular file (- writes to standard output)`);
  if (!force && existing !== undefined) throw new UsageError(`${command}: ${path} exists (--force replaces it)`);
  const staging = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(staging, 'wx', 0o600);
  } catch (error) {
    throw new CommandFailure(`${command}: cannot write ${path} (${errno(error)}); nothing was asked`);
  }
  let written = 0;
  const close = async () => {
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  let moved = false;
  // Interrupted (Ctrl-C, a supervisor's SIGTERM), the staging file goes too: never a part of OUT left beside it.
  const interrupted = (signal: NodeJS.Signals) => {
    removeQuietly(staging);
    process.stderr.write(`keygate: ${command}: interrupted (${signal})${moved ? '' : `; nothing was written to ${path}`}\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return {
    stream: new WritableStream<Uint8Array>({
      async write(chunk) {
        try {
          for (let offset = 0; offset < chunk.length; ) offset += (await handle!.write(chunk, offset)).bytesWritten;
        } catch (error) {
          throw new CommandFailure(`${command}: cannot write ${path} (${errno(error)})`);
        }
        written += chunk.length;
      },
    }),
    written: () => written,
    async commit() {
      try {
        await handle?.sync();
        await close();
        if (force) renameSync(staging, path);
        else linkSync(staging, path);
        moved = true;
      } catch (error) {
        const code = errno(error);
        throw new CommandFailure(
          code === 'EEXIST' ? `${command}: ${path} appeared meanwhile` : `${command}: cannot write ${path} (${code})`,
        );
      }
    },
    /** The staging file's name goes (after a link, OUT keeps the bytes), and so do the signal handlers. */
    async discard() {
      await close().catch(() => undefined);
      removeQuietly(staging);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    },
  };
}

/** Standard output, each chunk handed on once the last was taken (the pipe's own pace). */
function standardOutput(command: string): Output {
  let written = 0;
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise<void>((resolve, reject) =>
        process.stdout.write(chunk, (error) => {
          if (error) return reject(new CommandFailure(`${command}: cannot write to standard output (${errno(error)})`));
          written += chunk.length;
          resolve();
        }),
      );
    },
  });
  return { stream, written: () => written, commit: () => Promise.resolve(), discard: () => Promise.resolve() };
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // moved into place by a rename, or never made
  }
}
