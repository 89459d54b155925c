import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { type Declare, testUnless } from './skip.js';

/**
 * Why a small disk cannot be mounted here (mounting a tmpfs is not allowed), or undefined when it can:
 * probed once, when a test file loads, so that its tests are declared with `test.skip` and the reason.
 */
export const smallDiskSkipReason: string | undefined = probeMount();

function probeMount(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mounting a tmpfs is not allowed here';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `test`, or ava's skip with the reason (see skip.ts) where no small disk can be mounted. */
export const withSmallDisk: Declare = testUnless(smallDiskSkipReason);

/**
 * A tmpfs of `size` mounted for this test (unmounted at teardown). Declare the test with
 * `withSmallDisk`: where mounting is not allowed it is skipped before it runs, and a mount that fails
 * anyway fails the test.
 */
export function smallDisk(t: ExecutionContext, size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
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
