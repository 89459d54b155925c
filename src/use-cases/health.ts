import type { KeyServer } from '../ports/key-server.port.js';
import type { SessionStore } from '../ports/session-store.port.js';

export type CheckState = 'ok' | 'unavailable';

export interface HealthReport {
  readonly ok: boolean;
  readonly ksFingerprint: string;
  /** The gateway's version. */
  readonly version: string;
  readonly sessions: number;
  readonly checks: { readonly keyServer: CheckState; readonly sessionStore: CheckState };
}

/** Liveness, and the key server's fingerprint for pinning (seed 000 rule 5). Never throws. */
export class HealthUseCases {
  readonly #keyServer: KeyServer;
  readonly #store: SessionStore;
  readonly #version: string;

  constructor(deps: { keyServer: KeyServer; store: SessionStore; version: string }) {
    this.#keyServer = deps.keyServer;
    this.#store = deps.store;
    this.#version = deps.version;
  }

  async report(): Promise<HealthReport> {
    const [keyServer, sessions] = await Promise.all([
      this.#keyServer.ping().then(() => 'ok' as const, () => 'unavailable' as const),
      this.#store.count().then((n) => n, () => -1),
    ]);
    const sessionStore: CheckState = sessions < 0 ? 'unavailable' : 'ok';
    return {
      ok: keyServer === 'ok' && sessionStore === 'ok',
      ksFingerprint: this.#keyServer.fingerprint(),
      version: this.#version,
      sessions: Math.max(sessions, 0),
      checks: { keyServer, sessionStore },
    };
  }
}
