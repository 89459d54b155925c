import { AsyncLocalStorage } from 'node:async_hooks';
import type { EngineStore } from '../../src/keyserver/engine/engine-store.port.js';

/**
 * Counts the AsyncLocalStorage instances `use` runs, and of them the ones still enabled when it ends.
 * On Node 20 an instance that ran once stays on Node's list of them until it is disabled, and every
 * promise the process makes is stamped once per instance on that list: a store that leaves its
 * instance there slows down everything that runs after it in the same process (a test file's next tests).
 */
export async function contextsLeftBy(use: () => Promise<void>): Promise<{ ran: number; stillEnabled: number }> {
  const prototype = AsyncLocalStorage.prototype;
  const { run, disable } = prototype;
  const ran = new Set<AsyncLocalStorage<unknown>>();
  const enabled = new Set<AsyncLocalStorage<unknown>>();
  prototype.run = function recordedRun(this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof run>) {
    ran.add(this);
    enabled.add(this);
    return run.apply(this, args);
  } as typeof run;
  prototype.disable = function recordedDisable(this: AsyncLocalStorage<unknown>) {
    enabled.delete(this);
    disable.call(this);
  };
  try {
    await use();
  } finally {
    prototype.run = run;
    prototype.disable = disable;
  }
  return { ran: ran.size, stillEnabled: enabled.size };
}

/** A unit that nests another, a read outside any, then close: every asynchronous context the store has runs. */
export async function useThenClose(store: EngineStore): Promise<void> {
  await store.atomically(() => store.atomically(() => store.principalByName('nobody')));
  await store.principalByName('nobody');
  await store.close();
}
