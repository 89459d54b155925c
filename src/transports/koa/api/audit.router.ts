import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import type { AuditRecord } from '../../../domain/audit/audit.js';
import { SessionRequiredError } from '../../../domain/session/session.errors.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import { nameAuditedOperation } from '../audit.middleware.js';
import { parseWith } from '../parse.js';
import type { GatewayState } from '../state.js';
import { auditQueryRequest } from './audit.schema.js';

type ApiContext = Context & { state: GatewayState };

/** A record as the API shows it: `at` as an ISO 8601 instant. */
export function auditRecordView(record: AuditRecord) {
  return { ...record, at: new Date(record.at).toISOString() };
}

function audited(operation: string) {
  return async function nameOperation(ctx: ApiContext, next: Next) {
    nameAuditedOperation(ctx, operation);
    await next();
  };
}

/** The session the /api surface's bearer step resolved (seed 001); this router does not authenticate. */
function caller(ctx: ApiContext): Caller {
  if (ctx.state.caller === undefined) throw new SessionRequiredError();
  return ctx.state.caller;
}

/**
 * GET /api/audit and GET /api/audit/{id} (api-surface.md operations 49 and 50). Mounted behind the
 * /api surface's request id, audit, error mapper and bearer steps; `audit.read` is decided by the use
 * case. An unreadable store is AUDIT_UNAVAILABLE (503), never a short or empty list.
 */
export function auditRouter(services: Pick<GatewayServices, 'audit'>): Router {
  const router = new Router({ prefix: '/api', strict: true });

  router.get('/audit', audited('audit.query'), async (ctx: ApiContext) => {
    const query = parseWith(auditQueryRequest, ctx.query);
    const page = await services.audit.queryAudit(caller(ctx), query);
    ctx.body = { items: page.items.map(auditRecordView), complete: true, ...(page.next === undefined ? {} : { next: page.next }) };
  });

  router.get('/audit/:id', audited('audit.get'), async (ctx: ApiContext) => {
    ctx.body = auditRecordView(await services.audit.getAuditRecord(caller(ctx), ctx.params.id!));
  });

  return router;
}
