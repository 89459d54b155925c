import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../ports/clock.port.js';

/** The dependencies whose waits one request adds up against one bound each. */
export type BudgetedDependency = 'keyServer' | 'audit';

/** The process's monotonic time as epoch milliseconds: a wall-clock step never stretches or shrinks a wait. */
const MONOTONIC: Clock = { now: () => performance.timeOrigin + performance.now() };

/**
 * One request's time waiting at one dependency: every call of that request draws on the same budget,
 * so a request that makes several calls (an audit begin and finish; a token revocation, then the two
 * SRP legs of a login) still waits at most `timeoutMs` there in all. Calls that overlap count their
 * common time once. The gateway's own work between calls is not a wait and is not counted.
 *
 * The budget reads elapsed time from `clock` (the process's monotonic time unless one is given: a test
 * gives a manual clock); the deadlines set from `leftMs()` (`withinBudget`, the key-server channel)
 * are timers of the process.
 */
export class WaitBudget {
  readonly timeoutMs: number;
  readonly #clock: Clock;
  #spentMs = 0;
  #running = 0;
  #since = 0;
  /** Set once a call of this request was handed to the dependency (it may have acted on it). */
  #reached = false;

  constructor(timeoutMs: number, clock: Clock = MONOTONIC) {
    this.timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  /** What is left now (ms, rounded up; 0 or less: spent). */
  leftMs(): number {
    const inFlight = this.#running > 0 ? this.#clock.now() - this.#since : 0;
    return Math.ceil(this.timeoutMs - this.#spentMs - inFlight);
  }

  /** Starts a wait; the answer ends it (once, however often it is called). */
  startWait(): () => void {
    if (this.#running === 0) this.#since = this.#clock.now();
    this.#running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#running -= 1;
      if (this.#running === 0) this.#spentMs += this.#clock.now() - this.#since;
    };
  }

  /**
   * Counts the whole budget spent: a deadline set from `leftMs()` has passed. A process timer may fire
   * a fraction of a millisecond before the clock shows that time gone; the deadline decides, so no
   * sliver of a millisecond is left over for a next call.
   */
  exhaust(): void {
    this.#spentMs = Math.max(this.#spentMs, this.timeoutMs);
  }

  /** Notes that a call was handed to the dependency. */
  markReached(): void {
    this.#reached = true;
  }

  get reached(): boolean {
    return this.#reached;
  }
}

const budgets = new AsyncLocalStorage<Map<BudgetedDependency, WaitBudget>>();

/**
 * Runs `work` as one request: the calls it makes (and what they start) share one budget per
 * dependency. A nested call starts a request of its own, with fresh budgets.
 */
export function withinRequest<T>(work: () => Promise<T>): Promise<T> {
  return budgets.run(new Map(), work);
}

/**
 * The current request's budget at `dependency`, made with `timeoutMs` on its first use; outside a
 * request (start-up checks, timers) a fresh budget for this call alone.
 */
export function requestBudget(dependency: BudgetedDependency, timeoutMs: number): WaitBudget {
  const current = budgets.getStore();
  if (current === undefined) return new WaitBudget(timeoutMs);
  let budget = current.get(dependency);
  if (budget === undefined) {
    budget = new WaitBudget(timeoutMs);
    current.set(dependency, budget);
  }
  return budget;
}

/**
 * `work`'s answer, or a rejection with `expired()` once the budget is spent; the time waited is drawn
 * from the budget either way. A late answer is dropped.
 */
export function withinBudget<T>(budget: WaitBudget, work: () => Promise<T>, expired: () => Error): Promise<T> {
  const left = budget.leftMs();
  if (left <= 0) return Promise.reject(expired());
  const end = budget.startWait();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      budget.exhaust();
      reject(expired());
    }, left);
  });
  const running = work();
  running.catch(() => undefined);
  return Promise.race([running, deadline]).finally(() => {
    clearTimeout(timer);
    end();
  });
}
