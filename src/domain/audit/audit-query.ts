import { BadRequestError } from '../errors/common.errors.js';
import type { AuditRecord, AuditRecordOutcome } from './audit.js';

/** `limit` of one page (docs/spec.md §4.1 item 4: 1..500, 100 when absent). */
export const AUDIT_PAGE_LIMIT = { min: 1, max: 500, default: 100 } as const;

/**
 * A question to the audit log (GET /api/audit). Results are newest first: by `at` descending, then by
 * `id` descending. `from` and `to` are inclusive bounds on `at` (ms since the epoch). `cursor` is the
 * opaque `next` of the previous page.
 */
export interface AuditQuery {
  readonly from?: number;
  readonly to?: number;
  readonly principal?: string;
  readonly operation?: string;
  readonly outcome?: AuditRecordOutcome;
  /** Exactly this `object` (a group membership change is found by `membershipObject`). */
  readonly object?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** A place in the newest-first order: the (at, id) of the last record of a page. */
export interface AuditPosition {
  readonly at: number;
  readonly id: string;
}

/** An AuditQuery checked and decoded, as the stores run it. */
export interface ResolvedAuditQuery extends Omit<AuditQuery, 'limit' | 'cursor'> {
  readonly limit: number;
  /** Only records strictly after this position (older, or as old with a smaller id). */
  readonly after?: AuditPosition;
}

/** One page. `next` is present when more records may follow; a page is always whole. */
export interface AuditPage {
  readonly items: readonly AuditRecord[];
  readonly next?: string;
}

/** Checks and decodes a query; a bad limit, cursor or time range is a BadRequestError naming the field. */
export function resolveAuditQuery(query: AuditQuery): ResolvedAuditQuery {
  const limit = query.limit ?? AUDIT_PAGE_LIMIT.default;
  if (!Number.isInteger(limit) || limit < AUDIT_PAGE_LIMIT.min || limit > AUDIT_PAGE_LIMIT.max) {
    throw new BadRequestError(`limit: expected an integer from ${AUDIT_PAGE_LIMIT.min} to ${AUDIT_PAGE_LIMIT.max}`);
  }
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && !Number.isSafeInteger(value)) throw new BadRequestError(`${field}: not a time`);
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new BadRequestError('from: later than to');
  }
  const { cursor, ...rest } = query;
  return { ...rest, limit, ...(cursor === undefined ? {} : { after: decodeAuditCursor(cursor) }) };
}

const CURSOR_TEXT = /^(0|[1-9]\d{0,15})\.([0-9a-f]{32})$/;

/** The opaque cursor of a position: base64url (no padding) of `<at>.<id>`. */
export function encodeAuditCursor(position: AuditPosition): string {
  return Buffer.from(`${position.at}.${position.id}`, 'utf8').toString('base64url');
}

/** Reads a cursor made by `encodeAuditCursor`; anything else is a BadRequestError. */
export function decodeAuditCursor(cursor: string): AuditPosition {
  const text = /^[A-Za-z0-9_-]{1,80}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = CURSOR_TEXT.exec(text);
  const at = Number(match?.[1]);
  // Re-encoding must give the same string: one position has exactly one cursor.
  if (!match || !Number.isSafeInteger(at) || encodeAuditCursor({ at, id: match[2]! }) !== cursor) {
    throw new BadRequestError('cursor: not a cursor this log issued');
  }
  return { at, id: match[2]! };
}

/** Newest first: `at` descending, then `id` descending (ids are fixed-width hex, so bytewise order). */
export function compareNewestFirst(a: AuditPosition, b: AuditPosition): number {
  if (a.at !== b.at) return b.at - a.at;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** True when the record satisfies every filter of the query, cursor included. */
export function matchesAuditQuery(record: AuditRecord, query: ResolvedAuditQuery): boolean {
  return (
    (query.from === undefined || record.at >= query.from) &&
    (query.to === undefined || record.at <= query.to) &&
    (query.principal === undefined || record.principal === query.principal) &&
    (query.operation === undefined || record.operation === query.operation) &&
    (query.outcome === undefined || record.outcome === query.outcome) &&
    (query.object === undefined || record.object === query.object) &&
    (query.after === undefined || compareNewestFirst(query.after, record) < 0)
  );
}

/**
 * Cuts a page from the first `limit + 1` matching records in newest-first order: the extra record only
 * tells that more follow, and the cursor points at the last record kept.
 */
export function pageOf(firstRecords: readonly AuditRecord[], limit: number): AuditPage {
  if (firstRecords.length <= limit) return { items: firstRecords };
  const items = firstRecords.slice(0, limit);
  return { items, next: encodeAuditCursor(items[items.length - 1]!) };
}
