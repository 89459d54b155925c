import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { KeygateError, NotFoundError } from '../../../domain/errors/index.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { GatewayState } from '../state.js';
import { aclRoutes } from './acl.routes.js';
import { certificateRoutes } from './certificates.routes.js';
import { fixedPathMethods, fixedRoutes, mountRoutes, type ApiRoute } from './api-route.js';
import { auditRoutes } from './audit.routes.js';
import { cryptoRoutes } from './crypto.routes.js';
import { groupRoutes } from './groups.routes.js';
import { healthRoutes } from './health.routes.js';
import { keyRoutes } from './keys.routes.js';
import { principalRoutes } from './principals.routes.js';
import { policyRoutes } from './policy.routes.js';
import { roleRoutes } from './roles.routes.js';
import { serverRoutes } from './server.routes.js';
import { sessionRoutes } from './sessions.routes.js';
import { trustRoutes } from './trust.routes.js';

/** True for the paths of the /api surface. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Every /api operation, family by family: the one table routes and the OpenAPI document come from. */
export function apiRouteTable(services: GatewayServices): ApiRoute[] {
  return [
    ...sessionRoutes(services),
    ...cryptoRoutes(services),
    ...keyRoutes(services),
    ...aclRoutes(services),
    ...principalRoutes(services),
    ...groupRoutes(services),
    ...roleRoutes(services),
    ...certificateRoutes(services),
    ...trustRoutes(services),
    ...serverRoutes(services),
    ...policyRoutes(services),
    ...auditRoutes(services),
    ...healthRoutes(services),
  ];
}

/**
 * The /api surface as middleware: the routes, then 405 for a known path with a wrong method, 404
 * `NOT_FOUND` for any other path under /api.
 */
export function apiMiddleware(services: GatewayServices): Middleware<GatewayState>[] {
  const table = apiRouteTable(services);
  const router = mountRoutes(table, services);
  // One router per family (`/api/<family>/...`): a request is matched against its family's few routes,
  // not against all of them. The whole router answers only the 405/404 of a request none matched.
  const families = new Map<string, Middleware<GatewayState>>();
  for (const family of new Set(table.map((route) => familyOf(route.path)))) {
    families.set(
      family,
      mountRoutes(
        table.filter((route) => familyOf(route.path) === family),
        services,
      ).routes() as unknown as Middleware<GatewayState>,
    );
  }
  // A fixed path is found by one lookup; a path with a parameter by its family's router.
  const fixedPaths = fixedRoutes(table, services).routes() as unknown as Middleware<GatewayState>;
  const routes: Middleware<GatewayState> = (ctx, next) => fixedPaths(ctx, () => byFamily(ctx, next));
  const byFamily: Middleware<GatewayState> = (ctx, next) => {
    const family = families.get(familyOf(ctx.path).toLowerCase()); // the routers match case-insensitively
    return family === undefined ? next() : family(ctx, next);
  };
  return [routes, noApiRoute(router, fixedPathMethods(table))];
}

/** `session` for `/api/session/scoped`: the second segment of a path (no family starts with a parameter). */
function familyOf(path: string): string {
  const end = path.indexOf('/', 5);
  return path.slice(5, end < 0 ? undefined : end);
}

function noApiRoute(router: Router, fixed: ReadonlyMap<string, readonly string[]>): Middleware<GatewayState> {
  return async function answerNoApiRoute(ctx, next) {
    if (!isApiPath(ctx.path)) return next();
    const allowed = new Set<string>(fixed.get(ctx.path) ?? []);
    if (allowed.size === 0) for (const layer of router.match(ctx.path, ctx.method).path) for (const method of layer.methods) allowed.add(method);
    if (allowed.size === 0) throw new NotFoundError(`no route ${ctx.method} ${ctx.path}`);
    ctx.state.allow = [...allowed].join(', ');
    throw new KeygateError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
  };
}
