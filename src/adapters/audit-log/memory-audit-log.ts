import { AuditRecordExistsError, AuditUnavailableError } from '../../domain/audit/audit.errors.js';
import type { AuditCompletion, AuditRecord } from '../../domain/audit/audit.js';
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
import { packEntry, recordOf, unpackEntry } from './compact-entries.js';

/**
 * Audit entries in this process's memory: for tests and for an embedding service that forwards its
 * records elsewhere. Nothing survives a restart. Entries are only ever appended; reads fold a pending
 * entry and its outcome into one record. Each entry is kept once, compactly (its digests packed,
 * `compact-entries.ts`): every audited request adds one or two, so they are most of what a
 * long-running process holds of its past requests. Records are folded from them when read.
 */
export class MemoryAuditLog implements AuditLog {
  readonly #entries: AuditEntry[] = [];
  readonly #checkpoints: AuditCheckpoint[] = [];
  /** Record id -> index in `#entries` of its first (pending or whole) entry. */
  readonly #firstEntry = new Map<string, number>();
  /** Record id -> index of its pending entry, while it has no outcome. */
  readonly #pending = new Map<string, number>();
  readonly #chain: AuditChain | undefined;
  /** The last MAC stored, in hex and packed: the next entry's `prev` shares the packed string. */
  #lastMac: { readonly mac: string; readonly packed: string } | undefined;
  #closed = false;

  /** With a chain, every entry is sealed on it and checkpoints are signed when due. */
  constructor(options: { chain?: AuditChain } = {}) {
    this.#chain = options.chain;
  }

  async append(record: AuditRecord): Promise<void> {
    this.#open();
    if (this.#firstEntry.has(record.id)) throw new AuditRecordExistsError(record.id);
    const index = this.#store(entryOf(record));
    this.#firstEntry.set(record.id, index);
    if (record.outcome === 'pending') this.#pending.set(record.id, index);
  }

  async complete(id: string, completion: AuditCompletion): Promise<boolean> {
    this.#open();
    const index = this.#pending.get(id);
    if (index === undefined) return false;
    this.#pending.delete(id);
    // The pending entry's fields as stored (text storable); the outcome entry takes the few it repeats.
    this.#store(outcomeEntry(recordOf(this.#entries[index]!), completion));
    return true;
  }

  async get(id: string): Promise<AuditRecord | undefined> {
    this.#open();
    const index = this.#firstEntry.get(id);
    return index === undefined ? undefined : this.#recordAt(index);
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    const resolved = resolveAuditQuery(query);
    this.#open();
    const matching = this.#records().filter((record) => matchesAuditQuery(record, resolved));
    matching.sort(compareNewestFirst);
    return pageOf(matching.slice(0, resolved.limit + 1), resolved.limit);
  }

  async readChain(range: AuditChainRange = {}): Promise<AuditChainSlice> {
    this.#open();
    const slice = sliceOfChains(this.#entries, this.#checkpoints, range);
    return { ...slice, entries: slice.entries.map(unpackEntry) };
  }

  /** The range as it stands now, in chain order, cut into pages. */
  async readChainPages(range: AuditChainRange = {}, pageSize = AUDIT_CHAIN_PAGE_SIZE): Promise<AuditChainPages> {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize: expected a positive integer');
    this.#open();
    const { entries, checkpoints, partial } = sliceOfChains(this.#entries, this.#checkpoints, range);
    const ordered = inChainOrder(entries.map(unpackEntry));
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

  /** Stores the entry (sealed on the chain when there is one) and answers its index. */
  #store(entry: AuditEntry): number {
    const chain = this.#chain;
    if (chain === undefined) return this.#entries.push({ ...entry }) - 1;
    const sealed = chain.seal(entry);
    chain.advance(sealed);
    const mac = sealed.mac;
    const index = this.#entries.push(packEntry(sealed, this.#lastMac)) - 1;
    this.#lastMac = { mac, packed: sealed.mac };
    if (chain.checkpointDue()) this.#checkpoint();
    return index;
  }

  /** The record whose first entry is at `index`, with its outcome when it has one. */
  #recordAt(index: number): AuditRecord {
    const first = this.#entries[index]!;
    if (first.entry !== 'pending' || this.#pending.has(first.id)) return recordOf(first);
    // The outcome comes after its pending entry: the first later entry of the same id.
    for (let later = index + 1; later < this.#entries.length; later++) {
      const entry = this.#entries[later]!;
      if (entry.id === first.id && entry.entry === 'outcome') return recordOf(first, entry);
    }
    return recordOf(first);
  }

  /** Every record, each folded from its entries in one pass. */
  #records(): AuditRecord[] {
    const outcomes = new Map<string, AuditEntry>();
    for (const entry of this.#entries) if (entry.entry === 'outcome') outcomes.set(entry.id, entry);
    const records: AuditRecord[] = [];
    for (const index of this.#firstEntry.values()) {
      const first = this.#entries[index]!;
      records.push(recordOf(first, first.entry === 'pending' ? outcomes.get(first.id) : undefined));
    }
    return records;
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
