import type { Context, Middleware } from 'koa';
import type { GatewayState } from '../state.js';

/** One static file of the operator console: its media type and its bytes. */
export interface ConsoleAsset {
  readonly type: string;
  readonly body: string;
}

/** The console's files by name (`index.html`, `console.js`, `console.css`). */
export type ConsoleAssets = ReadonlyMap<string, ConsoleAsset>;

/** Gives the console's files (loaded once and kept by the loader). */
export type LoadConsoleAssets = () => Promise<ConsoleAssets>;

/** Where the console is served: the page at `/console/`, its script and style beside it. */
export const CONSOLE_PATH = '/console';

/**
 * Headers of every console answer. The page runs only its own script and style, talks only to its
 * own origin (the gateway's /api), may not be framed, and sends no referrer: a password session is
 * unbound, so a script injected into the page would hold it; the policy is what keeps one out.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Serves the console's static files under `/console/` (GET and HEAD). `/console` redirects to
 * `/console/` with a relative Location, so the page's relative links hold under a mount path too.
 * The files are asked of `load` on each request for one (the app's loader keeps them once loaded).
 */
export function serveConsole(load: LoadConsoleAssets): Middleware<GatewayState> {
  return async function consoleFile(ctx) {
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) ctx.set(name, value);
    ctx.state.unauditedOperation = 'console';
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      return answer(ctx, 405, `method ${ctx.method} not allowed on ${ctx.path}`);
    }
    if (ctx.path === CONSOLE_PATH) {
      ctx.status = 302;
      ctx.set('Location', 'console/');
      return;
    }
    const name = ctx.path.slice(CONSOLE_PATH.length + 1) || 'index.html';
    let assets: ConsoleAssets;
    try {
      assets = await load();
    } catch (error) {
      ctx.state.errorCause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return answer(ctx, 503, 'the console is not available: its files were not built (npm run build)');
    }
    const asset = assets.get(name);
    if (asset === undefined) return answer(ctx, 404, `no route ${ctx.method} ${ctx.path}`);
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
}

function answer(ctx: Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { error };
}
