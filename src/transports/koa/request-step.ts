import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import type { AuditTrail } from '../../use-cases/audit.js';
import { finishAudit } from './audit.middleware.js';
import { respondWithError, type ErrorMapper } from './error-handler.js';
import { requestIdentity } from './request-id.js';
import type { GatewayState } from './state.js';

export interface RequestStepOptions {
  readonly trail: AuditTrail;
  readonly mapperFor: (path: string) => ErrorMapper;
  readonly logger: Logger;
  /** The origin clients address behind a TLS-terminating proxy (proof `htu`). */
  readonly publicOrigin: string | undefined;
}

/**
 * The one step every request passes: its id (`X-Request-Id`), the origin its proof URL is built on, the headers of
 * every response, the shaping of any failure below into the surface's error body, and the audit
 * record of a route that named an operation. The record is written once the response is decided
 * (status and `errorCode` final); when the trail refuses to let a sensitive success through
 * unrecorded, its AuditUnavailableError is shaped here too, in place of the result.
 */
export function requestStep(options: RequestStepOptions): Middleware<GatewayState> {
  const { trail, mapperFor, logger, publicOrigin } = options;
  return async function handleRequest(ctx, next) {
    const opened = openResponse(ctx.req.headers);
    ctx.state.requestId = opened.requestId;
    if (opened.traceId !== undefined) ctx.state.traceId = opened.traceId;
    const res = ctx.res;
    const { headers } = opened;
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    // The expected proof URL is built only when a bound session's proof needs it (`expectedHtu`).
    ctx.state.publicOrigin = publicOrigin;
    try {
      await next();
    } catch (thrown) {
      respondWithError(ctx, thrown, mapperFor, logger);
    }
    if (ctx.state.audit === undefined) return;
    try {
      await finishAudit(trail, ctx);
    } catch (thrown) {
      respondWithError(ctx, thrown, mapperFor, logger);
    }
  };
}

/** What opens every response: the request's id and trace, and the headers it carries. */
export interface OpenedResponse {
  readonly requestId: string;
  readonly traceId?: string;
  /** Names and values in turn, as `writeHead` takes them. */
  readonly headers: string[];
}

/**
 * The request's id and trace (`requestIdentity`), and the headers every response carries: its id, the
 * echoed `traceparent`, `Cache-Control: no-store` and `nosniff`. The Koa step and the health probe's
 * own path (`health-probe.ts`) both open their responses here.
 */
export function openResponse(incoming: IncomingHttpHeaders): OpenedResponse {
  const identity = requestIdentity(single(incoming['x-request-id']), single(incoming.traceparent));
  const headers = ['X-Request-Id', identity.requestId, 'Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff'];
  if (identity.traceparent === undefined) return { requestId: identity.requestId, headers };
  headers.push('traceparent', identity.traceparent);
  return { requestId: identity.requestId, traceId: identity.traceId!, headers };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
