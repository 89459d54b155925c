import { type ChildProcess, spawn } from 'node:child_process';
import { ChildProcesses, type Owner } from './child-processes.js';
import { scratchDir } from './scratch-dirs.js';

const BIN = new URL('./keygate-from-source.js', import.meta.url).pathname;
const READY = /^keygate: listening url=(\S+) port=(\d+)$/m;
const running = new ChildProcesses();
// A safety net: whatever ends the test process (a timeout included) takes its children with it.

/** `keygate serve` as a separate process, as a deployment runs it. */
export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends `signal` (SIGTERM by default) and resolves with the exit code once it is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process is gone, however it ended. */
  exited(): Promise<number | null>;
}

/**
 * Starts `keygate serve` on a free loopback port with `env` over the inherited environment, and
 * resolves once it prints where it listens (`args` follow `serve`). Each process gets a scratch data directory of its own
 * (identity, SQLite audit log) unless `env` names one. The process is killed when `owner` ends (a test's
 * teardown), whatever the test's outcome. With `oneStream`, stderr is written into stdout (`2>&1`, as a
 * terminal or a log collector shows them): `output()` then holds the lines in the order they were written.
 */
export function spawnGateway(
  owner: Owner,
  env: Record<string, string>,
  args: readonly string[] = [],
  { oneStream = false }: { oneStream?: boolean } = {},
): Promise<GatewayProcess> {
  const serve = [BIN, 'serve', ...args];
  const [file, argv] = oneStream ? ['/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', process.execPath, ...serve]] : [process.execPath, serve];
  const child = spawn(file, argv, {
    env: {
      ...process.env,
      TE_GATEWAY_HOST: '127.0.0.1',
      TE_GATEWAY_PORT: '0',
      TE_GATEWAY_LOG_LEVEL: 'warn',
      TE_GATEWAY_DATA_DIR: scratchDir('keygate-serve-'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = running.track(child);
  owner.teardown(() => running.end(child, exited));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`gateway did not start within 45 s:\n${output}`)), 45_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onEarlyExit = (code: number | null) => fail(new Error(`gateway exited (${code}) before listening:\n${output}`));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = READY.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      child.removeListener('exit', onEarlyExit);
      resolve({
        url: ready[1]!,
        port: Number(ready[2]),
        child,
        output: () => output,
        stop: async (signal = 'SIGTERM') => (child.exitCode === null && child.signalCode === null && child.kill(signal), exited),
        exited: () => exited,
      });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', onEarlyExit);
  });
}

/** Kills every gateway a test file started and did not stop (for `test.after.always`). */
export function killAllGateways(): Promise<void> {
  return running.killAll();
}
