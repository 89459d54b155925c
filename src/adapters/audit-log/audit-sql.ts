import type { AuditCompletion, AuditRecord, AuditRecordOutcome } from '../../domain/audit/audit.js';
import type { ResolvedAuditQuery } from '../../domain/audit/audit-query.js';

/**
 * What the SQLite and PostgreSQL audit logs share: the table's columns, the row mapping, and the
 * query's WHERE clause. Each store names its own placeholders and its own type for `at`.
 */
export const AUDIT_COLUMNS = 'id, at, request_id, principal, session_ref, operation, object, outcome, status, code';

export interface AuditRow {
  readonly id: string;
  readonly at: unknown;
  readonly request_id: string;
  readonly principal: string | null;
  readonly session_ref: string | null;
  readonly operation: string;
  readonly object: string | null;
  readonly outcome: string;
  readonly status: number;
  readonly code: string | null;
}

/** The values of one record, in AUDIT_COLUMNS order. */
export function rowValues(record: AuditRecord, at: (ms: number) => unknown): unknown[] {
  return [
    record.id,
    at(record.at),
    record.requestId,
    record.principal ?? null,
    record.sessionRef ?? null,
    record.operation,
    record.object ?? null,
    record.outcome,
    record.status,
    record.code ?? null,
  ];
}

export function recordFromRow(row: AuditRow, atMs: number): AuditRecord {
  return {
    id: row.id,
    at: atMs,
    requestId: row.request_id,
    ...(row.principal === null ? {} : { principal: row.principal }),
    ...(row.session_ref === null ? {} : { sessionRef: row.session_ref }),
    operation: row.operation,
    ...(row.object === null ? {} : { object: row.object }),
    outcome: row.outcome as AuditRecordOutcome,
    status: Number(row.status),
    ...(row.code === null ? {} : { code: row.code }),
  };
}

/** SET clause and values of a completion: given fields replace, absent ones keep what is stored. */
export function completionAssignments(completion: AuditCompletion, param: (value: unknown) => string): string {
  return [
    `outcome = ${param(completion.outcome)}`,
    `status = ${param(completion.status)}`,
    `code = COALESCE(${param(completion.code ?? null)}, code)`,
    `principal = COALESCE(${param(completion.principal ?? null)}, principal)`,
    `session_ref = COALESCE(${param(completion.sessionRef ?? null)}, session_ref)`,
    `object = COALESCE(${param(completion.object ?? null)}, object)`,
  ].join(', ');
}

/**
 * The WHERE clause of a resolved query (filters and cursor); `1 = 1` when there is none. The cursor is a
 * row-value comparison, so both stores walk their (at DESC, id DESC) index.
 */
export function queryConditions(query: ResolvedAuditQuery, param: (value: unknown) => string, at: (ms: number) => unknown): string {
  const conditions: string[] = [];
  if (query.from !== undefined) conditions.push(`at >= ${param(at(query.from))}`);
  if (query.to !== undefined) conditions.push(`at <= ${param(at(query.to))}`);
  if (query.principal !== undefined) conditions.push(`principal = ${param(query.principal)}`);
  if (query.operation !== undefined) conditions.push(`operation = ${param(query.operation)}`);
  if (query.outcome !== undefined) conditions.push(`outcome = ${param(query.outcome)}`);
  if (query.after !== undefined) conditions.push(`(at, id) < (${param(at(query.after.at))}, ${param(query.after.id)})`);
  return conditions.length === 0 ? '1 = 1' : conditions.join(' AND ');
}
