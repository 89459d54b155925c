import type { ChildProcess } from 'node:child_process';

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
