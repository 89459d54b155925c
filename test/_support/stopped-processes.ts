import { execFileSync } from 'node:child_process';
import type { ExecutionContext } from 'ava';

/**
 * Stops processes (SIGSTOP) until the test ends, when they are continued (SIGCONT). They keep their
 * sockets: the kernel still accepts connections for them, and nothing answers.
 */
export function stopProcesses(t: ExecutionContext, pids: readonly number[]): void {
  t.teardown(() => {
    for (const pid of pids) signal(pid, 'SIGCONT');
  });
  for (const pid of pids) signal(pid, 'SIGSTOP');
}

/** The server process of the test PostgreSQL cluster listening on `port`, and its children (its backends and workers). */
export function postgresProcesses(port: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args: args! }));
  const server = rows.find((row) => /\/postgres\s/.test(row.args) && row.args.includes(`-p ${port}`));
  if (server === undefined) throw new Error(`no PostgreSQL server on port ${port}`);
  return [server.pid, ...rows.filter((row) => row.ppid === server.pid).map((row) => row.pid)];
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
