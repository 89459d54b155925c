import { Router } from '@koa/router';
import type { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import { requireBearer, type ApiContext } from './api-context.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route's handler receives: the validated body and query, and the path parameters. */
export interface RouteInput<B, Q> {
  readonly body: B;
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * One /api operation: its method and path, whether it needs a session, its request schemas (zod,
 * strict) and its handler. The same declaration mounts the route and writes the OpenAPI document.
 */
export interface ApiRoute<B = unknown, Q = unknown> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Koa path, parameters as `:name`. */
  readonly path: string;
  /** `none` for the five operations that need no session (api-surface.md conventions). */
  readonly auth: 'session' | 'none';
  readonly summary: string;
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly success: { readonly status: number; readonly schema?: z.ZodType };
  handle(ctx: ApiContext, input: RouteInput<B, Q>): Promise<void>;
}

/** Declares a route with its types inferred from its schemas. */
export function route<B = undefined, Q = undefined>(definition: ApiRoute<B, Q>): ApiRoute {
  return definition as unknown as ApiRoute;
}

/** Mounts routes on a router: parse -> session (and its proof) -> handler. */
export function mountRoutes(routes: readonly ApiRoute[], services: GatewayServices): Router {
  const router = new Router({ strict: true });
  const session = requireBearer(services);
  for (const definition of routes) {
    const steps = definition.auth === 'session' ? [session] : [];
    const handler = async function runRoute(ctx: ApiContext) {
      const body = definition.body ? parseWith(definition.body, await readJsonBody(ctx)) : undefined;
      const query = definition.query ? parseWith(definition.query, ctx.query) : undefined;
      await definition.handle(ctx, { body, query, params: (ctx as ApiContext & { params?: Record<string, string> }).params ?? {} });
    };
    const method = definition.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](definition.path, ...(steps as []), handler);
  }
  return router;
}
