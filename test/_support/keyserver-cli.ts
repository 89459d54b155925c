import { execFile } from 'node:child_process';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `keygate keyserver ...args` as a process to its end (for the commands that do not start the
 * daemon: backup, restore, rotate-master-key), with `env` over this process's environment.
 */
export function runKeyserverCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const environment = { ...process.env, TE_KEYSERVER_ADMIN_PASSWORD: '', ...env };
    execFile(
      process.execPath,
      [BIN, 'keyserver', ...args],
      { encoding: 'utf8', env: environment, timeout: 45_000 },
      (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}
