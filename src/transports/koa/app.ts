import Koa from 'koa';
import type { Logger } from '../../ports/logger.port.js';
import type { GatewayServices } from '../../use-cases/index.js';
import { auditRequests } from './audit.middleware.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-id.js';
import { rootErrorMapper } from './root/root.errors.js';
import { rootRouter } from './root/root.router.js';
import type { GatewayState } from './state.js';

export interface KoaAppOptions {
  readonly logger: Logger;
}

/**
 * Builds the gateway's Koa application over the use cases. It never listens: the caller (the CLI, an
 * embedding service, a test) decides where it is served.
 */
export function createKoaApp(services: GatewayServices, options: KoaAppOptions): Koa<GatewayState> {
  const app = new Koa<GatewayState>({ proxy: false });
  app.silent = true;
  app.use(requestContext());
  // Two error handlers around the audit step: the inner one shapes the route's failure before it is
  // recorded; the outer one shapes the audit step's own refusal (a sensitive success left unrecorded).
  app.use(errorHandler(() => rootErrorMapper, options.logger));
  app.use(auditRequests(services.auditTrail));
  app.use(errorHandler(() => rootErrorMapper, options.logger));
  const root = rootRouter(services);
  app.use(root.routes());
  // Reached only when no route answered: seed 000 §4, any other method and path is a 404.
  app.use(async function noRoute(ctx) {
    ctx.status = 404;
    ctx.body = { error: `no route ${ctx.method} ${ctx.path}` };
  });
  return app;
}
