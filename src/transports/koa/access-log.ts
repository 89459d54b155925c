import type { Logger } from '../../ports/logger.port.js';
import type { Metrics } from '../../ports/metrics.port.js';

/** What one access-log line says of a request. */
export interface AccessLine {
  readonly requestId: string;
  readonly traceId: string | undefined;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly seconds: number;
  readonly client: string;
  readonly principal?: string | undefined;
  readonly sessionRef?: string | undefined;
  readonly code?: string | undefined;
  readonly cause?: string | undefined;
}

/**
 * One access-log line per request, and the request's metrics: request id, trace id,
 * operation id, method, path, status, duration, client address, principal name and session reference.
 * Never a secret: no header, no body, no query string (a query may carry a ttag; the path of a key
 * route does too, which is why the line names the route's operation id beside the path). The request
 * step (`request-step.ts`) and the health probe's own path (`health-probe.ts`) both write it here.
 */
export function recordRequest(logger: Logger, metrics: Metrics, line: AccessLine): void {
  metrics.requestObserved(line.operation, line.status, line.seconds);
  logger.info('request', {
    requestId: line.requestId,
    traceId: line.traceId,
    operation: line.operation,
    method: line.method,
    path: line.path,
    status: line.status,
    durationMs: Math.round(line.seconds * 1e6) / 1e3,
    client: line.client,
    principal: line.principal,
    sessionRef: line.sessionRef,
    code: line.code,
    cause: line.cause,
  });
}
