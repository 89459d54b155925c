import type { AuditCompletion, AuditRecord } from '../domain/audit/audit.js';
import type { AuditChainPages, AuditChainRange, AuditChainSlice } from '../domain/audit/audit-entry.js';
import type { AuditPage, AuditQuery } from '../domain/audit/audit-query.js';
import { token } from './token.js';

/**
 * The audit database (docs/spec.md §9.2, §9.3): an append-only log. A pending record and its completion
 * are two entries; readers see one record per operation (the two folded). A store opened with an
 * `AuditChain` puts every entry in its writer's MAC chain and signs checkpoints of the head.
 * Adapters: memory, SQLite (the embedded default), PostgreSQL (shared by scale-out gateways); each
 * passes `test/ports/audit-log.contract.ts`.
 *
 * Errors: every method throws `AuditUnavailableError` (`AUDIT_UNAVAILABLE`) when the store cannot take
 * or read records (closed, unreachable, timed out, disk full); it never hangs past its own timeouts.
 * A method that resolved did its whole work: `append` and `complete` resolve only once the store has
 * taken the write, and `query` never answers a partial page as if it were whole.
 */
export interface AuditLog {
  /**
   * Stores a new record (possibly `pending`). An id the store already holds is refused with
   * `AuditRecordExistsError` (`CONFLICT`) and the stored record is left as it was.
   */
  append(record: AuditRecord): Promise<void>;
  /**
   * Finalises a `pending` record with its outcome, once, by appending an outcome entry (nothing stored
   * is updated). Answers false (and stores nothing) when no pending record has this id: unknown, or
   * already completed.
   */
  complete(id: string, completion: AuditCompletion): Promise<boolean>;
  /** The record with this id, or undefined. */
  get(id: string): Promise<AuditRecord | undefined>;
  /**
   * One page of the records matching the query, newest first (`at` then `id`, both descending).
   * Following `next` from the first page visits every matching record exactly once. A malformed
   * query (limit outside 1..500, a cursor this log did not issue, from after to) is `BAD_REQUEST`.
   */
  query(query: AuditQuery): Promise<AuditPage>;
  /**
   * The chained entries and checkpoints of a time range (the whole log without one), raw: pending and
   * outcome entries apart, every chain field as stored. For verification and export.
   */
  readChain(range?: AuditChainRange): Promise<AuditChainSlice>;
  /**
   * The same entries and checkpoints as `readChain`, the entries in pages of at most `pageSize`
   * (default `AUDIT_CHAIN_PAGE_SIZE`) in chain order, each page one bounded read: a caller can
   * let other work run between pages. Each writer's part of the range is fixed when this resolves
   * (entries chained after that are not read); unchained entries are read as they stand.
   * Reading a page may throw `AuditUnavailableError` like any other read.
   */
  readChainPages(range?: AuditChainRange, pageSize?: number): Promise<AuditChainPages>;
  /**
   * Resolves when the store answers and can take records: an adapter whose reads can succeed while its
   * writes fail (SQLite on a full disk) also checks its write path and the latest write's outcome.
   */
  ping(): Promise<void>;
  /** Releases connections and files; every method throws `AuditUnavailableError` afterwards. */
  close(): Promise<void>;
}

/** How one write of the audit log ended, as its observers are told (`ObservedAuditLog`). */
export interface AuditWriteEnded {
  readonly kind: 'append' | 'complete';
  readonly failed: boolean;
  readonly error: unknown;
  readonly seconds: number;
}

export type AuditWriteObserver = (ended: AuditWriteEnded) => void;

export const AUDIT_LOG = token<AuditLog>('AuditLog');
