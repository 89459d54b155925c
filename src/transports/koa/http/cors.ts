import type { Context, Middleware } from 'koa';
import type { Logger } from '../../../ports/logger.port.js';
import type { GatewayState } from '../state.js';

/** docs/spec.md §8 item 4: the same methods and headers for every path. */
const ALLOW_METHODS = 'GET, POST, PUT, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, DPoP';
/** Ten minutes of preflight cache. */
const MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access for an exact allowlist of origins. With an empty allowlist nothing is sent
 * (the same-origin proxy posture, rule 5). A refused origin gets no Access-Control-* header and is
 * logged (rule 6). Credentials are never allowed: no Access-Control-Allow-Credentials, ever.
 */
export function cors(allowlist: readonly string[], logger: Logger): Middleware<GatewayState> {
  const allowed = new Set(allowlist);
  return async function applyCors(ctx, next) {
    if (allowed.size === 0) return next();
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (origin === '') return next();
    // The gateway's own origin (its console's page) is same-origin: not a cross-origin request, so
    // neither allowed nor refused; the browser needs no header for it (docs/console.md).
    if (!allowed.has(origin) && origin === ownOrigin(ctx)) return next();
    if (!allowed.has(origin)) {
      logger.warn('cross-origin request refused', { origin, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId });
      return next();
    }
    ctx.set('Access-Control-Allow-Origin', origin);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') {
      ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
      ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', MAX_AGE_SECONDS);
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
    await next();
  };
}

/** The origin this request was addressed to: TE_GATEWAY_PUBLIC_ORIGIN's, else the connection's scheme and Host. */
function ownOrigin(ctx: Context & { state: GatewayState }): string {
  const configured = ctx.state.publicOrigin;
  if (configured !== undefined) return new URL(configured).origin;
  return `${ctx.protocol}://${ctx.host}`;
}
