import type { AuditLog } from '../ports/audit-log.port.js';
import type { KeyServer } from '../ports/key-server.port.js';
import { NoMetrics, type Metrics } from '../ports/metrics.port.js';
import type { SessionStore } from '../ports/session-store.port.js';

export type CheckState = 'ok' | 'unavailable';

export interface HealthReport {
  readonly ok: boolean;
  readonly ksFingerprint: string;
  /** The gateway's version. */
  readonly version: string;
  readonly sessions: number;
  readonly checks: { readonly keyServer: CheckState; readonly auditStore: CheckState; readonly sessionStore: CheckState };
}

/**
 * Liveness, and the key server's fingerprint for pinning (seed 000 rule 5). Never throws. `ok` is false
 * when any check fails: the audit store counts, since the gateway refuses sensitive operations without it.
 */
export class HealthUseCases {
  readonly #keyServer: KeyServer;
  readonly #store: SessionStore;
  readonly #version: string;
  readonly #auditLog: AuditLog;
  readonly #metrics: Metrics;

  constructor(deps: { keyServer: KeyServer; store: SessionStore; auditLog: AuditLog; version: string; metrics?: Metrics }) {
    this.#metrics = deps.metrics ?? new NoMetrics();
    this.#keyServer = deps.keyServer;
    this.#store = deps.store;
    this.#auditLog = deps.auditLog;
    this.#version = deps.version;
  }

  async report(): Promise<HealthReport> {
    const [keyServer, auditStore, sessions] = await Promise.all([
      state(this.#keyServer.ping()),
      auditStoreCheck(this.#auditLog),
      this.#store.count().then(
        (n) => n,
        () => -1,
      ),
    ]);
    const sessionStore: CheckState = sessions < 0 ? 'unavailable' : 'ok';
    const ok = keyServer === 'ok' && auditStore === 'ok' && sessionStore === 'ok';
    this.#metrics.healthProbe(ok ? 'ok' : 'not_ok');
    return {
      ok,
      ksFingerprint: this.#keyServer.fingerprint(),
      version: this.#version,
      sessions: Math.max(sessions, 0),
      checks: { keyServer, auditStore, sessionStore },
    };
  }
}

/**
 * The audit store's check, for whoever probes health (on request or in the background): the store's
 * `ping` exercises its write path (a write probe, the latest write's outcome, the file's identity).
 */
export function auditStoreCheck(auditLog: AuditLog): Promise<CheckState> {
  return state(auditLog.ping());
}

function state(check: Promise<void>): Promise<CheckState> {
  return check.then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
}
