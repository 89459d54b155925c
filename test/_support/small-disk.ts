import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';

/**
 * A tmpfs of `size` mounted for this test (unmounted at teardown). Where mounting is not allowed it
 * answers undefined, having logged the test as skipped and passed it: the caller then returns.
 */
export function smallDisk(t: ExecutionContext, size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    t.log('skipped: mounting a tmpfs is not allowed here');
    t.pass();
    return undefined;
  }
  t.teardown(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes files until the disk refuses (ENOSPC). */
export function fillDisk(dir: string): void {
  const chunk = Buffer.alloc(4096, 1);
  for (let i = 0; ; i += 1) {
    try {
      writeFileSync(join(dir, `filler-${i}`), chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw error;
    }
  }
}

/** Deletes what `fillDisk` wrote. */
export function freeDisk(dir: string): void {
  for (const name of readdirSync(dir)) if (name.startsWith('filler-')) unlinkSync(join(dir, name));
}
