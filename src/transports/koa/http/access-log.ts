import type { Context } from 'koa';
import type { Logger } from '../../../ports/logger.port.js';
import type { Metrics } from '../../../ports/metrics.port.js';
import type { GatewayState } from '../state.js';
import { peerAddress } from './client-address.js';

/** What one access-log line says of a request. */
export interface AccessLine {
  readonly requestId: string;
  readonly traceId: string | undefined;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly seconds: number;
  /** The client's address: X-Forwarded-For's client behind a trusted proxy, else the peer. */
  readonly client: string;
  /** The socket's peer (the proxy, behind one). */
  readonly peer: string;
  readonly principal?: string | undefined;
  readonly sessionRef?: string | undefined;
  readonly code?: string | undefined;
  readonly cause?: string | undefined;
}

/**
 * One access-log line per request, and the request's metrics: request id, trace id,
 * operation id, method, path, status, duration, client address (`client`, as the throttle and rate
 * limits see it: the forwarded client behind a trusted proxy) and the socket's peer beside it
 * (`peer`), principal name and session reference.
 * Never a secret: no header, no body, no query string (a query may carry a ttag; the path of a key
 * route does too, which is why the line names the route's operation id beside the path). The request
 * step (`accessLog`) and the health probe's own path (`health-probe.ts`) both write it here.
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
    peer: line.peer,
    principal: line.principal,
    sessionRef: line.sessionRef,
    code: line.code,
    cause: line.cause,
  });
}

/**
 * The request step's last part: the request's access-log line and metrics (`recordRequest`), from what
 * the request left in `ctx.state`. The operation is the audited one, else the route's unaudited name
 * (a health probe, the console), else `none`; the principal and session those of the record, else the
 * caller's.
 */
export function accessLog(logger: Logger, metrics: Metrics): (ctx: Context & { state: GatewayState }, started: number) => void {
  return function logAccess(ctx, started) {
    const state = ctx.state;
    const session = state.caller?.session;
    recordRequest(logger, metrics, {
      requestId: state.requestId,
      traceId: state.traceId,
      operation: state.audit?.draft.operation ?? state.unauditedOperation ?? 'none',
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      seconds: (performance.now() - started) / 1e3,
      client: state.clientAddress ?? peerAddress(ctx.req),
      peer: peerAddress(ctx.req),
      principal: state.audit?.draft.principal ?? session?.identity.user,
      sessionRef: state.audit?.draft.sessionRef ?? session?.ref,
      code: state.errorCode,
      cause: state.errorCause,
    });
  };
}
