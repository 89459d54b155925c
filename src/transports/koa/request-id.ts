import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { GatewayState } from './state.js';

/** An incoming request id is honoured when it is 1 to 64 characters of [A-Za-z0-9._-] (issue 15 §3). */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** W3C Trace Context §3.2: version-traceid-parentid-flags, lower-case hex; version ff is invalid. */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * Gives every request an id (response header `X-Request-Id`: the caller's own when well-formed, else a
 * fresh one), echoes a valid W3C `traceparent`, sets the expected proof URL, and marks every response
 * not storable.
 */
export function requestContext(publicOrigin: string | undefined): Middleware<GatewayState> {
  return async function requestContextStep(ctx, next) {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : randomBytes(8).toString('hex');
    const traceparent = ctx.get('traceparent').trim();
    const trace = TRACEPARENT.exec(traceparent);
    if (trace !== null) {
      ctx.state.traceId = trace[1];
      ctx.set('traceparent', traceparent);
    }
    // api-surface.md: from TE_GATEWAY_PUBLIC_ORIGIN when set, else the connection's scheme and the
    // Host header; never X-Forwarded-* or an absolute-form request line (the app does not trust a proxy).
    ctx.state.htu = `${publicOrigin ?? `${ctx.protocol}://${ctx.get('Host')}`}${ctx.path}`;
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
