import type { Middleware, Next } from 'koa';

type Step<C> = (ctx: C, next: Next) => Promise<unknown> | unknown;

/**
 * Routes of fixed paths (no parameters: the seven root operations, most of /api) as one
 * lookup by method and path. What @koa/router matched for them (strict paths, case-insensitive,
 * HEAD served by a GET route) is kept; what it did per request (testing every route's pattern,
 * composing the matched chain) is not.
 */
export class StaticRoutes<C extends { method: string; path: string }> {
  readonly #routes = new Map<string, Step<C>>();

  get(path: string, route: Step<C>): this {
    return this.on('GET', path, route);
  }

  post(path: string, route: Step<C>): this {
    return this.on('POST', path, route);
  }

  /**
   * The route of `method` (a GET route serves HEAD too) and the fixed `path`: one function, which does
   * every step of its route itself (nothing is composed around it per request).
   */
  on(method: string, path: string, route: Step<C>): this {
    if (path.includes(':')) throw new Error(`not a fixed path: ${path}`);
    for (const each of method === 'GET' ? ['GET', 'HEAD'] : [method]) this.#routes.set(`${each} ${asciiLowerCase(path)}`, route);
    return this;
  }

  /** True when some route has this method and path (as `routes()` would find it). */
  has(method: string, path: string): boolean {
    return this.#routes.has(`${method} ${path}`) || this.#routes.has(`${method} ${asciiLowerCase(path)}`);
  }

  /** The middleware: the route of the request's method and path, else `next`. */
  routes(): Middleware {
    const routes = this.#routes;
    return (ctx, next) => {
      const route = routes.get(`${ctx.method} ${ctx.path}`) ?? routes.get(`${ctx.method} ${asciiLowerCase(ctx.path)}`);
      return route === undefined ? next() : route(ctx as unknown as C, next);
    };
  }
}

/** A-Z only, as the router's case-insensitive patterns (no Unicode case folding: `\u212A` is not `k`). */
function asciiLowerCase(path: string): string {
  return path.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}
