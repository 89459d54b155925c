import type { AuditLog } from '../ports/audit-log.port.js';
import type { KeyServer, KeyServerDaemon } from '../ports/key-server.port.js';
import type { KeySetSource } from '../ports/key-set-source.port.js';
import { type Metrics, NoMetrics } from '../ports/metrics.port.js';
import type { SessionStore } from '../ports/session-store.port.js';
import type { WriterLocks } from '../ports/writer-locks.port.js';
import { HealthSignal, publicReason } from './health-signal.js';

const NO_METRICS = new NoMetrics();

export type CheckState = 'ok' | 'unavailable';

/** `conflict`: a store's writer lock was removed or replaced under this gateway, so another process may write it too. */
export type WriterState = 'ok' | 'conflict';

export interface HealthReport {
  readonly ok: boolean;
  readonly ksFingerprint: string;
  /** The gateway's version. */
  readonly version: string;
  readonly sessions: number;
  readonly checks: {
    readonly keyServer: CheckState;
    readonly auditStore: CheckState;
    readonly sessionStore: CheckState;
    readonly writer: WriterState;
    /** Workload issuers' key sets (docs/spec.md §4.24 item 6), once one was fetched; never makes `ok` false. */
    readonly jwks?: CheckState;
  };
  /** For a check that failed with a public reason (an audit chain that regressed, a writer conflict): that reason. */
  readonly reasons?: { readonly keyServer?: string; readonly auditStore?: string; readonly writer?: string };
  /** Each key-server daemon (a gateway on daemons only): its URL, its fingerprint once known, whether it serves. */
  readonly keyServers?: readonly KeyServerDaemon[];
}

export interface HealthDeps {
  readonly keyServer: KeyServer;
  readonly store: SessionStore;
  readonly auditLog: AuditLog;
  readonly version: string;
  readonly keySets?: KeySetSource;
  /** Outcomes of the gateway's own calls to the key server and of its audit writes (`ObservedKeyServer`, `ObservedAuditLog`). */
  readonly signals?: { readonly keyServer: HealthSignal; readonly auditStore: HealthSignal };
  /** How old a dependency state may get (default 1 000 ms): the background check runs this often. */
  readonly maxAgeMs?: number;
  /** Where health probes are counted (they are not audited). */
  readonly metrics?: Metrics;
  /** The gateway's writer locks, looked at each background round (none: no conflict to report). */
  readonly writers?: WriterLocks;
}

/** Default bound on the age of a dependency state. */
export const HEALTH_MAX_AGE_MS = 1_000;

/**
 * Liveness, and the key server's fingerprint for pinning (docs/spec.md §2.3 item 5). Never throws. `ok` is false
 * when any check fails: the audit store counts, since the gateway refuses sensitive operations without it.
 *
 * A probe does no I/O of its own: the key server's and the audit store's states come from a background
 * check at most `maxAgeMs` old. The key server's state is the outcome of the gateway's latest real call
 * when there was one within that time, else of a ping. With several daemons every round pings each
 * daemon (`KeyServer.daemons` lists them), and the key server is ok while at least one serves. The audit store is probed through its write path
 * every round (a full disk, a deleted or a replaced file); a failed real write marks it
 * down at once, and only a probe brings it back, so a write into a replaced file cannot hide it. The session count is the store's own `count()`, O(1) (for Redis, one round trip:
 * the count is shared by every gateway). Probes are counted (`probes`) for metrics, not audited.
 */
export class HealthUseCases {
  readonly #deps: HealthDeps;
  readonly #signals: { readonly keyServer: HealthSignal; readonly auditStore: HealthSignal };
  readonly #maxAgeMs: number;
  readonly #timer: ReturnType<typeof setInterval>;
  #checking: Promise<void> | undefined;
  #writerConflict: string | undefined;
  #firstCheck: Promise<void> | undefined;
  #probes = 0;

  constructor(deps: HealthDeps) {
    this.#deps = deps;
    this.#signals = deps.signals ?? { keyServer: new HealthSignal(), auditStore: new HealthSignal() };
    this.#maxAgeMs = deps.maxAgeMs ?? HEALTH_MAX_AGE_MS;
    this.#firstCheck = this.#check();
    this.#timer = setInterval(() => void this.#check(), this.#maxAgeMs);
    this.#timer.unref();
  }

  /** Health probes answered so far (a metrics counter; probes are not audited). */
  get probes(): number {
    return this.#probes;
  }

  async report(): Promise<HealthReport> {
    this.#probes++;
    if (this.#firstCheck !== undefined) await this.#firstCheck;
    const sessions = await this.#deps.store.count().then(
      (n) => n,
      () => -1,
    );
    const daemons = this.#deps.keyServer.daemons();
    const keyServer = daemons.length > 1 ? anyServes(daemons) : stateOf(this.#signals.keyServer);
    const auditStore = stateOf(this.#signals.auditStore);
    const sessionStore: CheckState = sessions < 0 ? 'unavailable' : 'ok';
    const writer: WriterState = this.#writerConflict === undefined ? 'ok' : 'conflict';
    const ok = keyServer === 'ok' && auditStore === 'ok' && sessionStore === 'ok' && writer === 'ok';
    (this.#deps.metrics ?? NO_METRICS).healthProbe(ok ? 'ok' : 'not_ok');
    const reasons = reasonsOf(this.#signals, this.#writerConflict);
    const jwks = this.#deps.keySets?.health();
    return {
      ok,
      ksFingerprint: this.#deps.keyServer.fingerprint(),
      version: this.#deps.version,
      sessions: Math.max(sessions, 0),
      checks: { keyServer, auditStore, sessionStore, writer, ...(jwks === undefined ? {} : { jwks }) },
      ...(reasons === undefined ? {} : { reasons }),
      ...(daemons.length === 0 ? {} : { keyServers: daemons.map(publicDaemon) }),
    };
  }

  /** Stops the background check. */
  close(): void {
    clearInterval(this.#timer);
  }

  /** One background round; a round still running (a slow ping) is not doubled. */
  #check(): Promise<void> {
    this.#writerConflict ??= this.#deps.writers?.conflict();
    this.#checking ??= Promise.all([
      this.#refresh(this.#signals.keyServer, () => this.#deps.keyServer.ping(), { always: this.#deps.keyServer.daemons().length > 1 }),
      this.#refresh(this.#signals.auditStore, () => this.#deps.auditLog.ping(), { always: true }),
    ]).then(() => {
      this.#checking = undefined;
      this.#firstCheck = undefined;
    });
    return this.#checking;
  }

  /** Pings when no real call reported within `maxAgeMs` (or `always`); a real outcome that arrives meanwhile beats the ping. */
  async #refresh(signal: HealthSignal, ping: () => Promise<void>, { always = false } = {}): Promise<void> {
    if (!always && signal.ageMs() < this.#maxAgeMs) return;
    const started = signal.version;
    const [ok, reason] = await ping().then(
      () => [true, undefined] as const,
      (error: unknown) => [false, publicReason(error)] as const,
    );
    if (signal.version === started) signal.note(ok, reason);
  }
}

function reasonsOf(
  signals: { readonly keyServer: HealthSignal; readonly auditStore: HealthSignal },
  writer: string | undefined,
): HealthReport['reasons'] {
  const { keyServer, auditStore } = { keyServer: signals.keyServer.reason, auditStore: signals.auditStore.reason };
  if (keyServer === undefined && auditStore === undefined && writer === undefined) return undefined;
  return {
    ...(keyServer === undefined ? {} : { keyServer }),
    ...(auditStore === undefined ? {} : { auditStore }),
    ...(writer === undefined ? {} : { writer }),
  };
}

/**
 * Several daemons: the key server serves while at least one daemon does. Each one's state is the
 * outcome of the latest attempt to reach it: a request's connection, or the ping of every round.
 */
function anyServes(daemons: readonly KeyServerDaemon[]): CheckState {
  return daemons.some((daemon) => daemon.ok) ? 'ok' : 'unavailable';
}

/** A daemon as health lists it: a fingerprint not yet known is left out. */
function publicDaemon(daemon: KeyServerDaemon): KeyServerDaemon {
  return {
    url: daemon.url,
    ...(daemon.fingerprint === undefined ? {} : { fingerprint: daemon.fingerprint }),
    ok: daemon.ok,
  } as KeyServerDaemon;
}

function stateOf(signal: HealthSignal): CheckState {
  return signal.ok ? 'ok' : 'unavailable';
}
