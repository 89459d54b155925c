import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { GatewayState } from './state.js';

/**
 * Gives every request an id (response header `X-Request-Id`) and its expected proof URL, and marks
 * every response not storable.
 */
export function requestContext(publicOrigin: string | undefined): Middleware<GatewayState> {
  return async function requestContextStep(ctx, next) {
    ctx.state.requestId = randomBytes(8).toString('hex');
    // api-surface.md: from TE_GATEWAY_PUBLIC_ORIGIN when set, else the connection's scheme and the
    // Host header; never X-Forwarded-* or an absolute-form request line (the app does not trust a proxy).
    ctx.state.htu = `${publicOrigin ?? `${ctx.protocol}://${ctx.get('Host')}`}${ctx.path}`;
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
