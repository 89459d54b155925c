import { z } from 'zod';
import { AUDIT_RECORD_OUTCOMES } from '../../../domain/audit/audit.js';
import { AUDIT_PAGE_LIMIT } from '../../../domain/audit/audit-query.js';
import { text } from '../schema/text-schema.js';

/** An ISO 8601 instant with its offset (`2026-01-01T12:00:00Z`, `...+02:00`), as ms since the epoch. */
const instant = z.iso
  .datetime({ offset: true, message: 'expected an ISO 8601 date-time with an offset' })
  .transform((value) => Date.parse(value));

/**
 * Query of GET /api/audit (docs/spec.md §4.15). Strict: an unknown or repeated parameter is
 * refused with one BAD_REQUEST naming it.
 */
export const auditQueryRequest = z.strictObject({
  from: instant.optional(),
  to: instant.optional(),
  principal: text({ min: 1, max: 256 }).optional(),
  // The ids the gateway records: dotted segments, camelCase within a segment (principals.senderKey.put).
  operation: z
    .string()
    .regex(/^[a-z][A-Za-z-]*(?:\.[a-z][A-Za-z-]*)*$/, 'expected an operation id such as keys.export')
    .max(64)
    .optional(),
  outcome: z.enum(AUDIT_RECORD_OUTCOMES).optional(),
  // Exact match: a ttag, a ttag and grantee, or a membership change's JSON object.
  object: text({ min: 1, max: 1024 }).optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'expected an integer')
    .transform(Number)
    .pipe(z.number().int().min(AUDIT_PAGE_LIMIT.min).max(AUDIT_PAGE_LIMIT.max))
    .optional(),
  cursor: text({ min: 1, max: 128 }).optional(),
});

/** Query of GET /api/audit/verify (docs/spec.md §4.15, §9.5): an optional time range. */
export const auditVerifyRequest = z.strictObject({
  from: instant.optional(),
  to: instant.optional(),
});
