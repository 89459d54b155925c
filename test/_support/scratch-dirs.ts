import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A directory of its own under the system's temporary directory (`prefix` and six random
 * characters), removed with whatever was written in it when the test process exits: a gateway's data,
 * a client's private key or a daemon's files outlive the test that made them, never the process.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
