import { performance } from 'node:perf_hooks';
import type { AuditCompletion, AuditRecord } from '../domain/audit/audit.js';
import type { AuditChainPages, AuditChainRange, AuditChainSlice } from '../domain/audit/audit-entry.js';
import type { AuditPage, AuditQuery } from '../domain/audit/audit-query.js';
import type { Secret } from '../domain/secret/secret.js';
import type { AuditLog } from '../ports/audit-log.port.js';
import type {
  KeyServer,
  KeyServerCertificateLogin,
  KeyServerConnection,
  KeyServerDaemon,
  KeyServerLogin,
} from '../ports/key-server.port.js';

/** The latest known state of one dependency, and when it was learnt. */
export class HealthSignal {
  #ok = true;
  #at = -Infinity;
  #version = 0;
  #reason: string | undefined;

  get ok(): boolean {
    return this.#ok;
  }

  /** Why it is down, when the failure said so in public words (a KeygateError's `reason`). */
  get reason(): string | undefined {
    return this.#ok ? undefined : this.#reason;
  }

  /** Bumped by every note: a ping that started before a real outcome arrived does not overwrite it. */
  get version(): number {
    return this.#version;
  }

  note(ok: boolean, reason?: string): void {
    this.#ok = ok;
    this.#reason = reason;
    this.#at = performance.now();
    this.#version++;
  }

  /** Milliseconds since the latest note (Infinity before the first). */
  ageMs(): number {
    return performance.now() - this.#at;
  }
}

/**
 * A KeyServer whose login and connect calls report the key server's state to `signal`: resolved, or
 * rejected with a code other than KEY_SERVER_UNAVAILABLE, is up (the key server answered); rejected
 * with KEY_SERVER_UNAVAILABLE is down. Its other members pass through untouched.
 */
export class ObservedKeyServer implements KeyServer {
  readonly #inner: KeyServer;
  readonly #signal: HealthSignal;

  constructor(inner: KeyServer, signal: HealthSignal) {
    this.#inner = inner;
    this.#signal = signal;
  }

  login(user: string, password: Secret): Promise<KeyServerLogin> {
    return observe(this.#inner.login(user, password), this.#signal, 'KEY_SERVER_UNAVAILABLE', false);
  }

  certificateChallenge(certificatePem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }> {
    return observe(this.#inner.certificateChallenge(certificatePem), this.#signal, 'KEY_SERVER_UNAVAILABLE', false);
  }

  certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    return observe(this.#inner.certificateLogin(challengeId, signature), this.#signal, 'KEY_SERVER_UNAVAILABLE', false);
  }

  connect(token: Secret): Promise<KeyServerConnection> {
    return observe(this.#inner.connect(token), this.#signal, 'KEY_SERVER_UNAVAILABLE', false);
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#inner.daemons();
  }

  ping(): Promise<void> {
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/**
 * An AuditLog whose writes (append, complete) report the audit store's state to `signal`: rejected
 * with AUDIT_UNAVAILABLE is down, any other outcome up. With `downOnly`, only the down outcomes are
 * reported (the up state then comes from the background probe alone). Reads pass through untouched.
 */
export class ObservedAuditLog implements AuditLog {
  readonly #inner: AuditLog;
  readonly #signal: HealthSignal;
  readonly #downOnly: boolean;

  constructor(inner: AuditLog, signal: HealthSignal, { downOnly = false } = {}) {
    this.#inner = inner;
    this.#signal = signal;
    this.#downOnly = downOnly;
  }

  append(record: AuditRecord): Promise<void> {
    return observe(this.#inner.append(record), this.#signal, 'AUDIT_UNAVAILABLE', this.#downOnly);
  }

  complete(id: string, completion: AuditCompletion): Promise<boolean> {
    return observe(this.#inner.complete(id, completion), this.#signal, 'AUDIT_UNAVAILABLE', this.#downOnly);
  }

  get(id: string): Promise<AuditRecord | undefined> {
    return this.#inner.get(id);
  }

  query(query: AuditQuery): Promise<AuditPage> {
    return this.#inner.query(query);
  }

  readChain(range?: AuditChainRange): Promise<AuditChainSlice> {
    return this.#inner.readChain(range);
  }

  readChainPages(range?: AuditChainRange, pageSize?: number): Promise<AuditChainPages> {
    return this.#inner.readChainPages(range, pageSize);
  }

  ping(): Promise<void> {
    return this.#inner.ping();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** Reports a call's outcome to `signal` (down when it failed with `downCode`) and hands it on unchanged. */
function observe<T>(result: Promise<T>, signal: HealthSignal, downCode: string, downOnly: boolean): Promise<T> {
  return result.then(
    (value) => {
      if (!downOnly) signal.note(true);
      return value;
    },
    (error: unknown) => {
      const up = (error as { code?: unknown } | undefined)?.code !== downCode;
      if (!up || !downOnly) signal.note(up, publicReason(error));
      throw error;
    },
  );
}

/** The public `reason` a failure carries (KeygateError), if any: never its detail or cause. */
export function publicReason(error: unknown): string | undefined {
  const reason = (error as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}
