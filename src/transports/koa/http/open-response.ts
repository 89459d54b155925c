import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import type { GatewayState } from '../state.js';
import { requestIdentity } from './request-id.js';

/** What opens every response: the request's id and trace, and the headers it carries. */
export interface OpenedResponse {
  readonly requestId: string;
  readonly traceId?: string;
  /** Names and values in turn, as `writeHead` takes them. */
  readonly headers: string[];
}

/**
 * The request's id and trace (`requestIdentity`), and the headers every response carries: its id, the
 * echoed `traceparent`, `Cache-Control: no-store` and `nosniff`. The Koa request step and the health
 * probe's own path (`health-probe.ts`) both open their responses here.
 */
export function openResponse(incoming: IncomingHttpHeaders): OpenedResponse {
  const identity = requestIdentity(single(incoming['x-request-id']), single(incoming.traceparent));
  const headers = ['X-Request-Id', identity.requestId, 'Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff'];
  if (identity.traceparent === undefined) return { requestId: identity.requestId, headers };
  headers.push('traceparent', identity.traceparent);
  return { requestId: identity.requestId, traceId: identity.traceId!, headers };
}

/**
 * The request step's first part: the request's id and trace into `ctx.state`, the headers of every
 * response set, and the origin a bound session's proof URL is built on (`expectedHtu` builds that URL
 * only when a proof needs it).
 */
export function openRequest(publicOrigin: string | undefined): (ctx: Context & { state: GatewayState }) => void {
  return function openKoaRequest(ctx) {
    const opened = openResponse(ctx.req.headers);
    const state = ctx.state;
    state.requestId = opened.requestId;
    if (opened.traceId !== undefined) state.traceId = opened.traceId;
    const { headers } = opened;
    for (let i = 0; i < headers.length; i += 2) ctx.res.setHeader(headers[i]!, headers[i + 1]!);
    state.publicOrigin = publicOrigin;
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
