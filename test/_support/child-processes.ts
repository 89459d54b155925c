import type { ExecutionContext } from 'ava';
import type { ChildProcess } from 'node:child_process';

/** Whoever ends what a helper starts: one test (its `t`), or the whole file for a shared fixture (`wholeFile`). */
export type Owner = Pick<ExecutionContext, 'teardown'>;

/** For a script outside ava (bench/): what it starts ends when it stops it, or when it exits. */
export const untilExit: Owner = { teardown: () => undefined };

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
