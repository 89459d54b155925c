import { Router } from '@koa/router';
import type { Context, Next } from 'koa';

/** One route's whole work: every step of the route in one function (nothing is composed around it). */
export type RouteStep<C> = (ctx: C, next: Next) => Promise<void> | void;

/**
 * What answers a request no route takes: `allowed` lists the methods of the path when its surface
 * knows the path (a 405 on /api), and is empty when it does not (a 404).
 */
export type NoRoute<C> = (ctx: C, allowed: readonly string[]) => Promise<void> | void;

interface FixedPath<C> {
  readonly steps: Map<string, RouteStep<C>>;
  /** The path's methods in the order declared, a GET's HEAD before it (as @koa/router lists them). */
  readonly allowed: string[];
}

/** The routes of one surface: fixed paths by lookup, paths with parameters by pattern. */
interface SurfaceRoutes<C> {
  readonly fixed: Map<string, FixedPath<C>>;
  readonly patterns: Router;
  /** The router's own middleware over `patterns` (it reads the routes registered so far on each request). */
  readonly byPattern: RouteStep<C>;
}

/**
 * The gateway's one routing table, both surfaces and every route. A request's surface is decided by
 * its path first (`surfaceOf`: `/api` and below, exact case, or the root), and only that surface's
 * routes can take it. Within it, @koa/router matches paths as it always did (strict, case-insensitive,
 * HEAD served by a GET route), and the same table answers the methods of a known path (`Allow`).
 * A fixed path (no parameter: the seven root operations and most of /api) is found by one map lookup
 * instead of testing every route's pattern, and is never taken as a parameter's value
 * (docs/spec.md §4.1 item 5: `GET /api/certificates/parse` is not the certificate `parse`).
 */
export class RouteTable<C extends Context, S extends string = string> {
  readonly #surfaces = new Map<S, SurfaceRoutes<C>>();
  readonly #mounts: { readonly prefix: string; readonly step: RouteStep<C> }[] = [];
  readonly #surfaceOf: (path: string) => S;
  readonly #noRoute: NoRoute<C>;

  constructor(surfaceOf: (path: string) => S, noRoute: NoRoute<C>) {
    this.#surfaceOf = surfaceOf;
    this.#noRoute = noRoute;
  }

  /**
   * Adds the route of `method` and `path` (Koa syntax, parameters as `:name`) to the surface its path
   * belongs to; a GET route serves HEAD too.
   */
  add(method: string, path: string, step: RouteStep<C>): this {
    const surface = this.#surface(this.#surfaceOf(path));
    if (path.includes(':')) {
      surface.patterns.register(path, [method], step as never);
      return this;
    }
    const key = asciiLowerCase(path);
    const fixed: FixedPath<C> = surface.fixed.get(key) ?? { steps: new Map(), allowed: [] };
    surface.fixed.set(key, fixed);
    for (const each of method === 'GET' ? ['HEAD', 'GET'] : [method]) {
      if (fixed.steps.has(each)) throw new Error(`two routes for ${each} ${path}`);
      fixed.steps.set(each, step);
      fixed.allowed.push(each);
    }
    return this;
  }

  /**
   * Hands every request on `prefix` and below (exact case: `/console`, `/console/...`) to `step`, whatever
   * its method: a mounted step answers its own methods.
   */
  mount(prefix: string, step: RouteStep<C>): this {
    this.#mounts.push({ prefix, step });
    return this;
  }

  /** The methods a path allows, in the order `Allow` names them; none for a path its surface does not know. */
  allowed(path: string): readonly string[] {
    const surface = this.#surfaces.get(this.#surfaceOf(path));
    if (surface === undefined) return [];
    const fixed = surface.fixed.get(asciiLowerCase(path));
    if (fixed !== undefined) return fixed.allowed;
    const methods = new Set<string>();
    for (const layer of surface.patterns.match(path, 'GET').path) for (const method of layer.methods) methods.add(method);
    return [...methods];
  }

  /** Runs a request: the mounted step or the route of its method and path, else `noRoute`. */
  dispatcher(): RouteStep<C> {
    const mounts = this.#mounts;
    const surfaces = this.#surfaces;
    const surfaceOf = this.#surfaceOf;
    const noRoute = this.#noRoute;
    const allowed = (path: string) => this.allowed(path);
    return function dispatch(ctx, next) {
      const path = ctx.path;
      for (const { prefix, step } of mounts) if (path === prefix || path.startsWith(`${prefix}/`)) return step(ctx, next);
      const surface = surfaces.get(surfaceOf(path));
      if (surface === undefined) return noRoute(ctx, []);
      const fixed = surface.fixed.get(path) ?? surface.fixed.get(asciiLowerCase(path));
      if (fixed === undefined) return surface.byPattern(ctx, async () => noRoute(ctx, allowed(path)));
      const step = fixed.steps.get(ctx.method);
      return step === undefined ? noRoute(ctx, fixed.allowed) : step(ctx, next);
    };
  }

  #surface(name: S): SurfaceRoutes<C> {
    let surface = this.#surfaces.get(name);
    if (surface === undefined) {
      const patterns = new Router({ strict: true });
      surface = { fixed: new Map(), patterns, byPattern: patterns.routes() as unknown as RouteStep<C> };
      this.#surfaces.set(name, surface);
    }
    return surface;
  }
}

/** A-Z only, as the router's case-insensitive patterns (no Unicode case folding: `\u212A` is not `k`). */
function asciiLowerCase(path: string): string {
  return path.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}
