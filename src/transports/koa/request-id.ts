import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import { expectedHtu } from './expected-htu.js';
import type { GatewayState } from './state.js';

/**
 * Gives every request an id (response header `X-Request-Id`) and its expected proof URL, and marks
 * every response not storable.
 */
export function requestContext(publicOrigin: string | undefined): Middleware<GatewayState> {
  return async function requestContextStep(ctx, next) {
    ctx.state.requestId = randomBytes(8).toString('hex');
    ctx.state.htu = expectedHtu(ctx, publicOrigin);
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
