import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { KeygateError, NotFoundError } from '../../../domain/errors/index.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { GatewayState } from '../state.js';
import { healthRouter } from './health.router.js';
import { identityAdminRouter } from './identity-admin.router.js';
import { sessionsRouter } from './sessions.router.js';

/** True for the paths of the /api surface. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The /api surface as a list of middleware: one router per operation family, then 405 for a known
 * path with a wrong method, 404 `NOT_FOUND` for any other path under /api.
 */
export function apiMiddleware(services: GatewayServices): Middleware<GatewayState>[] {
  const routers: Router[] = [sessionsRouter(services), identityAdminRouter(services), healthRouter(services)];
  return [...routers.map((router) => router.routes() as unknown as Middleware<GatewayState>), noApiRoute(routers)];
}

function noApiRoute(routers: readonly Router[]): Middleware<GatewayState> {
  return async function answerNoApiRoute(ctx, next) {
    if (!isApiPath(ctx.path)) return next();
    const allowed = new Set<string>();
    for (const router of routers) {
      for (const layer of router.match(ctx.path, ctx.method).path) for (const method of layer.methods) allowed.add(method);
    }
    if (allowed.size === 0) throw new NotFoundError(`no route ${ctx.method} ${ctx.path}`);
    ctx.state.allow = [...allowed].join(', ');
    throw new KeygateError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
  };
}
