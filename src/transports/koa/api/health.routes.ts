import type { GatewayServices } from '../../../use-cases/index.js';
import { route, type ApiRoute } from './api-route.js';
import { responses } from './api-responses.js';

/**
 * Health (api-surface.md operation 51): 503 with the same body when a check fails. Not audited
 * (api-surface.md "Additions in 8.1.x"); it does no I/O of its own (`HealthUseCases`).
 */
export function healthRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'health',
      method: 'GET',
      path: '/api/health',
      auth: 'none',
      audited: false,
      summary: 'Liveness, the key-server fingerprint and the checks',
      success: { status: 200, schema: responses.health, also: [503] },
      async handle(ctx) {
        const report = await services.health.report();
        ctx.status = report.ok ? 200 : 503;
        if (!report.ok) ctx.set('Retry-After', '5');
        ctx.body = { ok: report.ok, ksFingerprint: report.ksFingerprint, sessions: report.sessions, version: report.version, checks: report.checks };
      },
    }),
  ];
}
