import { KeygateError, NotFoundError } from '../../../domain/errors/index.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { apiRouteTable, isApiPath } from '../api/api.router.js';
import type { ApiContext } from '../api/api-context.js';
import { type ApiRoute, apiRouteStep } from '../api/api-route.js';
import { openApiRoute } from '../api/openapi.endpoint.js';
import { buildOpenApi } from '../api/openapi.js';
import { rootRouteTable } from '../root/root.routes.js';
import { type RootRoute, rootRouteStep } from '../root/root-route.js';
import { RouteTable } from './route-table.js';

/** A route of either surface, as declared (`route` for /api, `rootRoute` for the seven operations). */
export type Route = ApiRoute | RootRoute;

export interface RouteOptions {
  /** The gateway's version, shown in the served OpenAPI document. */
  readonly gatewayVersion: string;
  /** The public URL the served OpenAPI document names, when one is configured. */
  readonly publicOrigin?: string | undefined;
}

/**
 * Every route of the gateway, in the order the OpenAPI document lists them: the /api operations,
 * `GET /api/openapi.json`, then the seven root operations. The one table the routes, the OpenAPI
 * document and the audit names come from.
 */
export function gatewayRoutes(services: GatewayServices, options: RouteOptions): Route[] {
  const routes: Route[] = apiRouteTable(services);
  routes.push(
    openApiRoute(() => buildOpenApi(routes, options.gatewayVersion), options.publicOrigin),
    ...rootRouteTable(services),
  );
  return routes;
}

/** The route table of these routes: each route's steps are its surface's. */
export function routeTableOf(routes: readonly Route[], services: GatewayServices): RouteTable<ApiContext, Route['surface']> {
  const table = new RouteTable<ApiContext, Route['surface']>(surfaceOf, answerNoRoute);
  for (const route of routes) {
    if (surfaceOf(route.path) !== route.surface)
      throw new Error(`${route.operationId}: ${route.path} is not on the ${route.surface} surface`);
    table.add(route.method, route.path, route.surface === 'api' ? apiRouteStep(route, services) : rootRouteStep(route, services));
  }
  return table;
}

/** A path's surface: `/api` and below (exact case), else the root. */
function surfaceOf(path: string): Route['surface'] {
  return isApiPath(path) ? 'api' : 'root';
}

/**
 * A request no route takes. Under /api: a known path with another method is 405 with the path's
 * methods in `Allow`, any other path 404 `NOT_FOUND` (docs/spec.md §4.1 item 5). Elsewhere every such
 * request is 404 `no route` (docs/spec.md §2.1; §12 item 4: the root surface has no 405).
 */
function answerNoRoute(ctx: ApiContext, allowed: readonly string[]): void {
  if (!isApiPath(ctx.path)) {
    ctx.status = 404;
    ctx.body = { error: `no route ${ctx.method} ${ctx.path}` };
    return;
  }
  if (allowed.length === 0) throw new NotFoundError(`no route ${ctx.method} ${ctx.path}`);
  ctx.state.allow = allowed.join(', ');
  throw new KeygateError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`);
}
