import type { Middleware, Next } from 'koa';

type Step<C> = (ctx: C, next: Next) => Promise<unknown> | unknown;

/**
 * Routes of fixed paths (no parameters: the seven operations of seed 000, most of /api) as one
 * lookup by method and path. What @koa/router matched for them (strict paths, case-insensitive,
 * HEAD served by a GET route) is kept; what it did per request (testing every route's pattern,
 * composing the matched chain) is not.
 */
export class StaticRoutes<C extends { method: string; path: string }> {
  readonly #routes = new Map<string, Step<C>>();

  get(path: string, ...steps: Step<C>[]): this {
    return this.on('GET', path, ...steps);
  }

  post(path: string, ...steps: Step<C>[]): this {
    return this.on('POST', path, ...steps);
  }

  /** The route of `method` (a GET route serves HEAD too) and the fixed `path`. */
  on(method: string, path: string, ...steps: Step<C>[]): this {
    if (path.includes(':')) throw new Error(`not a fixed path: ${path}`);
    return this.#add(method === 'GET' ? ['GET', 'HEAD'] : [method], path, steps);
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

  #add(methods: readonly string[], path: string, steps: readonly Step<C>[]): this {
    // A route of one step (every route here) is that step itself, with nothing composed around it.
    const chain = steps.length === 1 ? steps[0]! : (ctx: C, next: Next) => runSteps(steps, 0, ctx, next);
    for (const method of methods) this.#routes.set(`${method} ${asciiLowerCase(path)}`, chain);
    return this;
  }
}

/** Step `i` of a route, its `next` the step after it (the last one's: the middleware's `next`). */
function runSteps<C>(steps: readonly Step<C>[], i: number, ctx: C, next: Next): Promise<unknown> {
  if (i === steps.length) return next();
  try {
    return Promise.resolve(steps[i]!(ctx, () => runSteps(steps, i + 1, ctx, next) as Promise<void>));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A-Z only, as the router's case-insensitive patterns (no Unicode case folding: `\u212A` is not `k`). */
function asciiLowerCase(path: string): string {
  return path.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}
