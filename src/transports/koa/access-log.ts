import type { Middleware } from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import type { Metrics } from '../../ports/metrics.port.js';
import type { GatewayState } from './state.js';

/**
 * One access-log line per request (issue 15 §3), and the request's metrics: request id, trace id,
 * operation id, method, path, status, duration, client address, principal name and session reference.
 * Never a secret: no header, no body, no query string (a query may carry a ttag; the path of a key
 * route does too, which is why the line names the route's operation id beside the path).
 */
export function accessLog(logger: Logger, metrics: Metrics): Middleware<GatewayState> {
  return async function logRequest(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1e3;
      const operation = ctx.state.audit?.operation ?? ctx.state.unauditedOperation ?? 'none';
      const status = ctx.status;
      metrics.requestObserved(operation, status, seconds);
      const session = ctx.state.caller?.session;
      logger.info('request', {
        requestId: ctx.state.requestId,
        traceId: ctx.state.traceId,
        operation,
        method: ctx.method,
        path: ctx.path,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        client: ctx.request.ip,
        principal: ctx.state.audit?.principal ?? session?.identity.user,
        sessionRef: ctx.state.audit?.sessionRef ?? session?.ref,
        code: ctx.state.errorCode,
        cause: ctx.state.errorCause,
      });
    }
  };
}
