import type { Clock } from '../../ports/clock.port.js';

/** The wait before a daemon that failed is tried again; it doubles with each failure in a row ... */
export const FIRST_RETRY_MS = 1_000;
/** ... up to this bound. */
export const LONGEST_RETRY_MS = 30_000;

interface MemberState {
  /** Failed connection attempts in a row; 0: the daemon serves. */
  failures: number;
  /** Clock time from which a down daemon may be tried again. */
  retryAt: number;
}

/**
 * The key-server daemons one gateway reaches, in the configured order, and whether each serves
 * (docs/deployment.md "Gateways and several daemons"). It does no I/O: the adapter reports each
 * connection attempt, and the pool answers which daemons to try, in what order.
 *
 * A daemon is down from a failed attempt (refused, no TLS handshake in time, a certificate that is
 * not the pinned one) until an attempt succeeds. A down daemon is left out until its back-off has
 * passed on the injected clock (1 s, doubling with each failure in a row, at most 30 s); then one
 * request tries it again, in its configured place. A down daemon is still tried last when no other
 * answered: a request is never refused without an attempt.
 */
export class DaemonPool<M> {
  readonly #members: readonly M[];
  readonly #states: Map<M, MemberState>;
  readonly #clock: Clock;

  constructor(members: readonly M[], clock: Clock) {
    if (members.length === 0) throw new Error('a daemon pool needs at least one daemon');
    this.#members = members;
    this.#states = new Map(members.map((member) => [member, { failures: 0, retryAt: 0 }]));
    this.#clock = clock;
  }

  get members(): readonly M[] {
    return this.#members;
  }

  /**
   * The order one request tries the daemons in: those that serve and those whose back-off has passed,
   * in the configured order, then the others, soonest retry first. A down daemon handed out for its
   * retry has its next retry moved on, so concurrent requests do not all wait on the same trial.
   */
  route(): M[] {
    const { ready, waiting } = this.#claim();
    return [...ready, ...waiting];
  }

  /** The daemons a health round checks: those `route` tries first, or all when every one waits. */
  probeTargets(): M[] {
    const { ready } = this.#claim();
    return ready.length > 0 ? ready : [...this.#members];
  }

  /** A connection to `member` was made and validated: it serves. */
  succeeded(member: M): void {
    const state = this.#state(member);
    state.failures = 0;
    state.retryAt = 0;
  }

  /** A connection to `member` could not be made: it is down, and waits out its back-off. */
  failed(member: M): void {
    const state = this.#state(member);
    state.failures += 1;
    state.retryAt = this.#clock.now() + backoffMs(state.failures);
  }

  isUp(member: M): boolean {
    return this.#state(member).failures === 0;
  }

  /** Serving and due daemons in the configured order (each due one's next retry moved on), and the rest. */
  #claim(): { ready: M[]; waiting: M[] } {
    const now = this.#clock.now();
    const ready = this.#members.filter((member) => this.#state(member).retryAt <= now);
    for (const member of ready) {
      const state = this.#state(member);
      if (state.failures > 0) state.retryAt = now + backoffMs(state.failures);
    }
    const waiting = this.#members
      .filter((member) => !ready.includes(member))
      .sort((a, b) => this.#state(a).retryAt - this.#state(b).retryAt);
    return { ready, waiting };
  }

  #state(member: M): MemberState {
    const state = this.#states.get(member);
    if (state === undefined) throw new Error('not a member of this daemon pool');
    return state;
  }
}

function backoffMs(failures: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 16));
}
