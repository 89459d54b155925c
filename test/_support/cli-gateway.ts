import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilKillAll } from './child-processes.js';
import { spawnGateway } from './gateway-process.js';
import { scratchDir } from './scratch-dirs.js';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A real `keygate serve` for a file of CLI tests, and the real `keygate` binary pointed at it. */
export interface CliGateway {
  readonly dir: string;
  /** The gateway's URL (KEYGATE_URL of every run). */
  readonly url: string;
  readonly adminPasswordFile: string;
  /** Runs `keygate args` against the gateway (KEYGATE_URL), with `env` over the inherited environment. */
  keygate(args: readonly string[], env?: Record<string, string>): Promise<CliRun>;
  /** `keygate login` as admin, its session kept in a file of its own: the environment that names it. */
  signInAdmin(): Promise<{ KEYGATE_SESSION_FILE: string }>;
}

/**
 * Starts a gateway process whose admin password is in a file, for the whole test file (stopped by the
 * file's `killAllGateways`). `name` names its temporary folder.
 */
export async function startCliGateway(name: string): Promise<CliGateway> {
  const dir = scratchDir(`keygate-cli-${name}-`);
  const adminPasswordFile = join(dir, 'admin-password');
  writeFileSync(adminPasswordFile, 'cli-admin-password-1\n', { mode: 0o600 });
  const gateway = await spawnGateway(untilKillAll, {
    TE_KEYSERVER_ADMIN_PASSWORD_FILE: adminPasswordFile,
    TE_GATEWAY_DATA_DIR: mkdtempSync(join(dir, 'data-')),
  });
  const keygate = (args: readonly string[], env: Record<string, string> = {}) =>
    new Promise<CliRun>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...process.env, KEYGATE_URL: gateway.url, ...env }, timeout: 90_000 },
        (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end('');
    });
  let sessions = 0;
  return {
    dir,
    url: gateway.url,
    adminPasswordFile,
    keygate,
    async signInAdmin() {
      const login = await keygate(['login', '--user', 'admin', '--password-file', adminPasswordFile]);
      if (login.status !== 0) throw new Error(`keygate login: ${login.status} ${login.stderr}`);
      sessions += 1;
      const sessionFile = join(dir, `session-${sessions}`);
      writeFileSync(sessionFile, `${login.stdout.trim()}\n`, { mode: 0o600 });
      return { KEYGATE_SESSION_FILE: sessionFile };
    },
  };
}
