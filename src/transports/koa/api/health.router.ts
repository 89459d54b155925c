import { Router } from '@koa/router';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { ApiContext } from './api-context.js';

/** Health (api-surface.md operation 51): 503 with the same body when a check fails. */
export function healthRouter(services: GatewayServices): Router {
  const router = new Router({ strict: true });
  router.get('/api/health', async (ctx: ApiContext) => {
    const report = await services.health.report();
    ctx.status = report.ok ? 200 : 503;
    if (!report.ok) ctx.set('Retry-After', '5');
    ctx.body = {
      ok: report.ok,
      ksFingerprint: report.ksFingerprint,
      sessions: report.sessions,
      version: report.version,
      checks: report.checks,
    };
  });
  return router;
}
