import type { Middleware } from 'koa';
import { KeygateError } from '../../../domain/errors/index.js';
import type { GatewayState } from '../state.js';
import { OPENAPI_PATH } from './openapi.js';

/**
 * GET /api/openapi.json (docs/spec.md §4.17): the document, public, not audited and not
 * one of the 51 operations. Its `servers` names the URL it was fetched by: the public URL when one is
 * configured, else the connection's scheme, the Host header and the mount point the gateway sits under.
 */
export function serveOpenApi(document: () => Record<string, unknown>, publicUrl: string | undefined): Middleware<GatewayState> {
  let built: Record<string, unknown> | undefined;
  return async function openApiDocument(ctx, next) {
    if (ctx.path !== OPENAPI_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.state.allow = 'GET, HEAD';
      throw new KeygateError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
    }
    built ??= document();
    const url = publicUrl ?? `${ctx.protocol}://${ctx.get('Host')}${mountPoint(ctx.req as { originalUrl?: unknown }, ctx.originalUrl, ctx.path)}`;
    ctx.body = { ...built, servers: [{ url, description: 'this gateway' }] };
  };
}

/** The prefix a host stripped before the gateway saw the path (koa-mount, Express `app.use('/kg')`). */
function mountPoint(req: { originalUrl?: unknown }, originalUrl: string, path: string): string {
  const requested = (typeof req.originalUrl === 'string' ? req.originalUrl : originalUrl).replace(/[?#].*$/s, '');
  return requested.endsWith(path) ? requested.slice(0, requested.length - path.length) : '';
}
