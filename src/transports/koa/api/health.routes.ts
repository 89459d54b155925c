import type { GatewayServices } from '../../../use-cases/index.js';
import { healthAnswer } from '../http/health-probe.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';

/**
 * Health (docs/spec.md §4.16): 503 with the same body when a check fails. Not audited
 * (docs/spec.md §9.1); it does no I/O of its own (`HealthUseCases`). A plain probe
 * is answered before Koa (`withHealthProbes`), the same way.
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
        const { status, body, retryAfter } = healthAnswer(await services.health.report(), 'api');
        ctx.status = status;
        if (retryAfter !== undefined) ctx.set('Retry-After', retryAfter);
        ctx.body = body;
      },
    }),
  ];
}
