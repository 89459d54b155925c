import Koa from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import { NoMetrics, type Metrics } from '../../ports/metrics.port.js';
import type { GatewayServices } from '../../use-cases/index.js';
import { accessLog } from './access-log.js';
import { apiErrorMapper } from './api/api.errors.js';
import { apiMiddleware, apiRouteTable, isApiPath } from './api/api.router.js';
import { buildOpenApi } from './api/openapi.js';
import { cors } from './cors.js';
import { auditRequests } from './audit.middleware.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-id.js';
import { rootErrorMapper } from './root/root.errors.js';
import { rootRouter } from './root/root.router.js';
import type { GatewayState } from './state.js';

export interface KoaAppOptions {
  readonly logger: Logger;
  /** Exact browser origins allowed cross-origin access; empty: no CORS header of any kind. */
  readonly corsOrigins?: readonly string[];
  /** The origin clients address behind a TLS-terminating proxy (proof `htu`). */
  readonly publicOrigin?: string | undefined;
  /** Request counts and durations by operation id and status (off by default). */
  readonly metrics?: Metrics;
}

/**
 * Builds the gateway's Koa application over the use cases. It never listens: the caller (the CLI, an
 * embedding service, a test) decides where it is served.
 */
export function createKoaApp(services: GatewayServices, options: KoaAppOptions): Koa<GatewayState> {
  const app = new Koa<GatewayState>({ proxy: false });
  app.silent = true;
  app.use(accessLog(options.logger, options.metrics ?? new NoMetrics()));
  app.use(requestContext(options.publicOrigin));
  app.use(cors(options.corsOrigins ?? [], options.logger));
  // Two error handlers around the audit step: the inner one shapes the route's failure before it is
  // recorded; the outer one shapes the audit step's own refusal (a sensitive success left unrecorded).
  const mapper = (path: string) => (isApiPath(path) ? apiErrorMapper : rootErrorMapper);
  app.use(errorHandler(mapper, options.logger));
  app.use(auditRequests(services.auditTrail));
  app.use(errorHandler(mapper, options.logger));
  for (const step of apiMiddleware(services)) app.use(step);
  app.use(rootRouter(services).routes());
  // Reached only when no route answered: seed 000 §4, any other method and path is a 404.
  app.use(async function noRoute(ctx) {
    ctx.status = 404;
    ctx.body = { error: `no route ${ctx.method} ${ctx.path}` };
  });
  return app;
}

/** The OpenAPI 3.1 document of the /api surface, from the route declarations themselves. */
export function openApiDocument(services: GatewayServices, gatewayVersion: string): Record<string, unknown> {
  return buildOpenApi(apiRouteTable(services), gatewayVersion);
}
