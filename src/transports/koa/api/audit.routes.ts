import { z } from 'zod';
import type { AuditRecord } from '../../../domain/audit/audit.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { auditQueryRequest, auditVerifyRequest } from './audit.schema.js';

/** A record as the API shows it: `at` as an ISO 8601 instant. */
export function auditRecordView(record: AuditRecord) {
  return { ...record, at: new Date(record.at).toISOString() };
}

/**
 * GET /api/audit and GET /api/audit/{id} (docs/spec.md §4.15), and GET
 * /api/audit/verify (an 8.1.x addition, outside the 51): `audit.read` is
 * decided by the use case; an unreadable store is AUDIT_UNAVAILABLE (503), never a short or empty list.
 */
export function auditRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'audit.query',
      method: 'GET',
      path: '/api/audit',
      auth: 'session',
      summary: 'Audit records, newest first, filtered and paged',
      query: auditQueryRequest,
      success: { status: 200, schema: responses.auditPage },
      async handle(ctx, { query }) {
        const page = await services.audit.queryAudit(callerOf(ctx), query);
        ctx.body = { items: page.items.map(auditRecordView), complete: true, ...(page.next === undefined ? {} : { next: page.next }) };
      },
    }),
    // Before /api/audit/:id, which would otherwise take `verify` for a record id.
    route({
      operationId: 'audit.verify',
      method: 'GET',
      path: '/api/audit/verify',
      auth: 'session',
      summary: 'Verify the audit chains and checkpoints of a time range; names every break',
      query: auditVerifyRequest,
      success: { status: 200, schema: responses.auditVerify },
      async handle(ctx, { query }) {
        ctx.body = await services.audit.verifyAudit(callerOf(ctx), query);
      },
    }),
    route({
      operationId: 'audit.get',
      method: 'GET',
      path: '/api/audit/:id',
      auth: 'session',
      summary: 'One audit record',
      params: { id: z.string().regex(/^[0-9a-f]{32}$/) },
      success: { status: 200, schema: responses.auditRecord },
      async handle(ctx, { params }) {
        ctx.body = auditRecordView(await services.audit.getAuditRecord(callerOf(ctx), params.id!));
      },
    }),
  ];
}
