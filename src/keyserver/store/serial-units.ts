import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The units of an in-process store, one after another: a unit queued while another runs starts when
 * every unit queued before it has ended, so a unit that waits (a certificate path check) is still
 * alone with the store until it ends. `inside` tells whether the caller runs within a unit (in the
 * same asynchronous context), where a nested unit joins the one around it instead of queueing.
 */
export class SerialUnits {
  readonly #context = new AsyncLocalStorage<true>();
  #tail: Promise<unknown> = Promise.resolve();

  get inside(): boolean {
    return this.#context.getStore() === true;
  }

  /** Runs `unit` after every unit queued before it; the caller checks `inside` first. */
  run<T>(unit: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => this.#context.run(true, unit));
    this.#tail = result.then(ignore, ignore);
    return result;
  }

  /**
   * For the store's close: takes the context off Node's list of AsyncLocalStorage instances. On
   * Node 20 an instance that ran once stays on that list until it is disabled, and every promise the
   * process makes afterwards is stamped once per instance on it, so a process that opens and closes
   * many stores (a test file) would slow down with each. A unit run after this puts it back.
   */
  close(): void {
    this.#context.disable();
  }
}

function ignore(): void {}
