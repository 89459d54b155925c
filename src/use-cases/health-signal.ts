import { performance } from 'node:perf_hooks';
import type { AuditWriteEnded, AuditWriteObserver } from '../ports/audit-log.port.js';
import type { KeyServerCallEnded, KeyServerObserver } from '../ports/key-server.port.js';

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

/** The KeyServer members whose outcome tells whether the key server answers (docs/spec.md §12 item 10). */
const ANSWERING_MEMBERS: ReadonlySet<string> = new Set(['login', 'certificateChallenge', 'certificateLogin', 'connect']);

/**
 * The health check's observer of the key server (plugged into the one observing decorator the app
 * wraps around it): a login leg or connect that resolved, or rejected with a code other than
 * KEY_SERVER_UNAVAILABLE, is up (the key server answered); rejected with KEY_SERVER_UNAVAILABLE is
 * down. Other calls (operations on a connection, pings) tell it nothing: the probe pings on its own.
 */
export function keyServerHealth(signal: HealthSignal): KeyServerObserver {
  return function noteKeyServerHealth(ended: KeyServerCallEnded): void {
    if (!ANSWERING_MEMBERS.has(ended.member)) return;
    if (!ended.failed) signal.note(true);
    else signal.note((ended.error as { code?: unknown } | undefined)?.code !== 'KEY_SERVER_UNAVAILABLE', publicReason(ended.error));
  };
}

/**
 * The health check's observer of the audit store (plugged into the one observing decorator the app
 * wraps around the audit log): a write rejected with AUDIT_UNAVAILABLE is down, any other outcome up.
 * With `downOnly`, only the down outcomes are told (the up state then comes from the background probe
 * alone).
 */
export function auditStoreHealth(signal: HealthSignal, { downOnly = false } = {}): AuditWriteObserver {
  return function noteAuditStoreHealth(ended: AuditWriteEnded): void {
    if (!ended.failed) {
      if (!downOnly) signal.note(true);
      return;
    }
    const up = (ended.error as { code?: unknown } | undefined)?.code !== 'AUDIT_UNAVAILABLE';
    if (!up || !downOnly) signal.note(up, publicReason(ended.error));
  };
}

/** The public `reason` a failure carries (KeygateError), if any: never its detail or cause. */
export function publicReason(error: unknown): string | undefined {
  const reason = (error as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}
