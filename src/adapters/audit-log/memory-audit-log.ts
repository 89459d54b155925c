import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import { type AuditCompletion, type AuditRecord, completeRecord } from '../../domain/audit/audit.js';
import type { AuditChain } from '../../domain/audit/audit-chain.js';
import {
  AUDIT_CHAIN_PAGE_SIZE,
  type AuditChainPages,
  type AuditChainRange,
  type AuditChainSlice,
  type AuditCheckpoint,
  type AuditEntry,
  entryOf,
  outcomeEntry,
  storableFields,
} from '../../domain/audit/audit-entry.js';
import {
  type AuditPage,
  type AuditQuery,
  compareNewestFirst,
  matchesAuditQuery,
  pageOf,
  resolveAuditQuery,
} from '../../domain/audit/audit-query.js';
import { inChainOrder } from '../../domain/audit/audit-verify.js';
import type { AuditLog } from '../../ports/audit-log.port.js';
import { sliceOfChains } from './chain-slice.js';

/**
 * Audit entries in this process's memory: for tests and for an embedding service that forwards its
 * records elsewhere. Nothing survives a restart. Entries are only ever appended; reads fold a pending
 * entry and its outcome into one record.
 */
export class MemoryAuditLog implements AuditLog {
  readonly #entries: AuditEntry[] = [];
  readonly #checkpoints: AuditCheckpoint[] = [];
  readonly #records = new Map<string, AuditRecord>();
  readonly #completed = new Set<string>();
  readonly #chain: AuditChain | undefined;
  #closed = false;

  /** With a chain, every entry is sealed on it and checkpoints are signed when due. */
  constructor(options: { chain?: AuditChain } = {}) {
    this.#chain = options.chain;
  }

  async append(record: AuditRecord): Promise<void> {
    this.#open();
    if (this.#records.has(record.id)) throw new AuditRecordExistsError(record.id);
    this.#store(entryOf(record));
    // Kept as the stores keep it: the text storable (`storableFields`), as its entry was sealed.
    this.#records.set(record.id, { ...storableFields(record) });
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    this.#open();
    const record = this.#records.get(id);
    if (record === undefined || record.outcome !== 'pending' || this.#completed.has(id)) return false;
    this.#store(outcomeEntry(record, completion));
    this.#completed.add(id);
    this.#records.set(id, completeRecord(record, storableFields(completion)));
    return true;
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    this.#open();
    const record = this.#records.get(id);
    return record === undefined ? undefined : { ...record };
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    const resolved = resolveAuditQuery(query);
    this.#open();
    const matching = [...this.#records.values()].filter((record) => matchesAuditQuery(record, resolved));
    matching.sort(compareNewestFirst);
    return pageOf(
      matching.slice(0, resolved.limit + 1).map((record) => ({ ...record })),
      resolved.limit,
    );
  }

  async readChain(range: AuditChainRange = {}): Promise<AuditChainSlice> {
    this.#open();
    return sliceOfChains(this.#entries, this.#checkpoints, range);
  }

  /** The range as it stands now, in chain order, cut into pages. */
  async readChainPages(range: AuditChainRange = {}, pageSize = AUDIT_CHAIN_PAGE_SIZE): Promise<AuditChainPages> {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize: expected a positive integer');
    this.#open();
    const { entries, checkpoints, partial } = sliceOfChains(this.#entries, this.#checkpoints, range);
    const ordered = inChainOrder(entries);
    const isOpen = () => this.#open();
    async function* pages(): AsyncGenerator<readonly AuditEntry[]> {
      for (let start = 0; start < ordered.length; start += pageSize) {
        isOpen();
        yield ordered.slice(start, start + pageSize);
      }
    }
    return { checkpoints, partial, pages: pages() };
  }

  async ping(): Promise<void> {
    this.#open();
  }

  async close(): Promise<void> {
    if (!this.#closed && this.#chain !== undefined) this.#checkpoint();
    this.#closed = true;
  }

  #store(entry: AuditEntry): void {
    const chain = this.#chain;
    if (chain === undefined) {
      this.#entries.push({ ...entry });
      return;
    }
    const sealed = chain.seal(entry);
    this.#entries.push(sealed);
    chain.advance(sealed);
    if (chain.checkpointDue()) this.#checkpoint();
  }

  #checkpoint(): void {
    const checkpoint = this.#chain!.checkpoint();
    if (checkpoint === undefined) return;
    this.#checkpoints.push(checkpoint);
    this.#chain!.checkpointed(checkpoint);
  }

  #open(): void {
    if (this.#closed) throw new AuditUnavailableError('the audit log is closed');
  }
}
