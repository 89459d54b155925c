import { execFile } from 'node:child_process';
import type { Owner } from './child-processes.js';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;

export interface Finished {
  /** The exit code; null when it did not end by itself within the time given (it was then killed). */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `keygate args` with `env` over the inherited environment until it exits: a command expected to
 * end by itself (a refused boot, a one-shot command). One still running after `timeoutMs` is killed, and
 * so is one still running when `owner` ends.
 */
export function runKeygate(owner: Owner, args: readonly string[], env: Record<string, string> = {}, timeoutMs = 45_000): Promise<Finished> {
  return new Promise((resolve) => {
    const options = { encoding: 'utf8' as const, env: { ...process.env, ...env }, timeout: timeoutMs, killSignal: 'SIGKILL' as const };
    const child = execFile(process.execPath, [BIN, ...args], options, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr });
    });
    owner.teardown(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  });
}
