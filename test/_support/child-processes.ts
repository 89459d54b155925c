import type { ChildProcess } from 'node:child_process';
import type { ExecutionContext } from 'ava';

/** Whoever ends what a helper starts: one test (its `t`, whose teardown ends it), or `untilKillAll`. */
export type Owner = Pick<ExecutionContext, 'teardown'>;

/**
 * For a process a whole test file shares (ava refuses hooks declared once the file's top-level awaits
 * have begun, so the file declares its `test.after.always(killAll…)` itself) or a bench script starts:
 * `killAll` ends it, and the test process's exit at the latest.
 */
export const untilKillAll: Owner = { teardown: () => undefined };

/**
 * The processes one kind of test fixture started: each is tracked until it exits, killed when the test
 * process exits, and `killAll` ends the rest (for `test.after.always`).
 */
export class ChildProcesses {
  readonly #running = new Set<ChildProcess>();

  constructor() {
    process.once('exit', () => {
      for (const child of this.#running) child.kill('SIGKILL');
    });
  }

  /** Tracks the child; the promise resolves with its exit code once it exits. */
  track(child: ChildProcess): Promise<number | null> {
    this.#running.add(child);
    return new Promise((done) => child.once('exit', (code) => (this.#running.delete(child), done(code))));
  }

  /** Kills the child unless it is gone already, and resolves once it has exited. */
  end(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  }

  async killAll(): Promise<void> {
    await Promise.all(
      [...this.#running].map(
        (child) =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      ),
    );
  }
}
