import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import type { Metrics } from '../../ports/metrics.port.js';
import type { AuditTrail } from '../../use-cases/audit.js';
import { recordRequest } from './access-log.js';
import { finishAudit, type Undoing } from './request-audit.js';
import { isKeygateError } from '../../domain/errors/index.js';
import { clientAddressKey, clientAddressOf } from './client-address.js';
import { respondWithError, type ErrorMapper } from './error-handler.js';
import { requestIdentity } from './request-id.js';
import type { GatewayState } from './state.js';

export interface RequestStepOptions {
  readonly trail: AuditTrail;
  readonly mapperFor: (path: string) => ErrorMapper;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The origin clients address behind a TLS-terminating proxy (proof `htu`). */
  readonly publicOrigin: string | undefined;
  /** Peers (IPs, CIDRs) whose X-Forwarded-For names the client. */
  readonly trustedProxies: readonly string[];
  /**
   * Runs one request so that its calls to each dependency share one timeout (the app gives the
   * adapters' `withinRequest`); without it each call has its own.
   */
  readonly withinRequest?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Per-address limits group an IPv6 client by this many leading bits. */
  readonly ipv6PrefixLength: number;
}

/**
 * The one step around every request Koa answers, in this order: its id (`X-Request-Id`) and the
 * headers of every response, the client's address (`clientAddressOf`) and the key its limits count under, the origin its proof URL is
 * built on; then, once the routes below have run, the shaping of any failure into the surface's error
 * body, the audit record of a route that named an operation, and last the access-log line and metrics.
 * The record is written once the response is decided (status and `errorCode` final);
 * when the trail refuses to let a sensitive success through unrecorded, its AuditUnavailableError is
 * shaped here too, in place of the result. One step, not one middleware each: every request passes it.
 */
export function requestStep(options: RequestStepOptions): Middleware<GatewayState> {
  const { trail, mapperFor, logger, metrics, publicOrigin } = options;
  const clientAddress = clientAddressOf(options.trustedProxies);
  const withinRequest = options.withinRequest ?? ((work) => work());
  const undoing: Undoing = {
    withinRequest,
    failed: (draft, error) =>
      logger.error('an object made without its audit record was not undone', {
        requestId: draft.requestId,
        auditId: draft.id,
        operation: draft.operation,
        object: draft.object,
        code: isKeygateError(error) ? error.code : undefined,
      }),
  };
  return function handleRequest(ctx, next) {
    return withinRequest(() => runRequest(ctx, next));
  };

  async function runRequest(ctx: Context & { state: GatewayState }, next: () => Promise<unknown>): Promise<void> {
    const started = performance.now();
    const opened = openResponse(ctx.req.headers);
    const state = ctx.state;
    state.requestId = opened.requestId;
    if (opened.traceId !== undefined) state.traceId = opened.traceId;
    const res = ctx.res;
    const { headers } = opened;
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    // The expected proof URL is built only when a bound session's proof needs it (`expectedHtu`).
    state.publicOrigin = publicOrigin;
    try {
      state.clientKey = clientAddressKey(clientAddress(ctx.req), options.ipv6PrefixLength);
      try {
        await next();
      } catch (thrown) {
        respondWithError(ctx, thrown, mapperFor, logger);
      }
      if (state.audit === undefined) return;
      try {
        await finishAudit(trail, ctx, undoing);
      } catch (thrown) {
        respondWithError(ctx, thrown, mapperFor, logger);
      }
    } finally {
      logRequest(ctx, started);
    }
  }

  function logRequest(ctx: Context & { state: GatewayState }, started: number): void {
    const state = ctx.state;
    const session = state.caller?.session;
    recordRequest(logger, metrics, {
      requestId: state.requestId,
      traceId: state.traceId,
      operation: state.audit?.operation ?? state.unauditedOperation ?? 'none',
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      seconds: (performance.now() - started) / 1e3,
      client: ctx.request.ip,
      principal: state.audit?.principal ?? session?.identity.user,
      sessionRef: state.audit?.sessionRef ?? session?.ref,
      code: state.errorCode,
      cause: state.errorCause,
    });
  }
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
