import { token } from './token.js';

/** How a health probe ended: every check ok, or at least one not. */
export type ProbeOutcome = 'ok' | 'not_ok';

/**
 * Operational counters and timings. Labels are bounded values only: an operation id, a
 * status, an error code, a method name. Never a session id, ttag, user name or address.
 * Adapters: `NoMetrics` (metrics off) and prom-client (`TE_GATEWAY_METRICS_PORT`).
 */
export interface Metrics {
  /** One answered request: its operation id (`none` when no route named one), status and duration. */
  requestObserved(operation: string, status: number, seconds: number): void;
  /** One call to the key server: the port method, the error code (`ok` on success) and duration. */
  keyServerCall(method: string, outcome: string, seconds: number): void;
  /** One write to the audit store (`append` or `complete`): ok or failed, and duration. */
  auditWrite(kind: 'append' | 'complete', ok: boolean, seconds: number): void;
  /** One audit write refused because the store's chain went back below what this gateway wrote. */
  auditChainRegressed(): void;
  /** One health probe and its outcome. */
  healthProbe(outcome: ProbeOutcome): void;
  /** One login refused by throttling. */
  loginThrottled(): void;
}

/** Metrics off: every observation is dropped. */
export class NoMetrics implements Metrics {
  requestObserved(): void {}
  keyServerCall(): void {}
  auditWrite(): void {}
  auditChainRegressed(): void {}
  healthProbe(): void {}
  loginThrottled(): void {}
}

export const METRICS = token<Metrics>('Metrics');
