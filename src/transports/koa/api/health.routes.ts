import type { GatewayServices } from '../../../use-cases/index.js';
import { route, type ApiRoute } from './api-route.js';

/** Health (api-surface.md operation 51): 503 with the same body when a check fails. */
export function healthRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'health',
      method: 'GET',
      path: '/api/health',
      auth: 'none',
      summary: 'Liveness, the key-server fingerprint and the checks',
      success: { status: 200 },
      async handle(ctx) {
        const report = await services.health.report();
        ctx.status = report.ok ? 200 : 503;
        if (!report.ok) ctx.set('Retry-After', '5');
        ctx.body = { ok: report.ok, ksFingerprint: report.ksFingerprint, sessions: report.sessions, version: report.version, checks: report.checks };
      },
    }),
  ];
}
