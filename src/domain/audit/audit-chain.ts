import { createPublicKey, createSecretKey, type KeyObject, sign } from 'node:crypto';
import { AuditChainRegressedError } from './audit.errors.js';
import {
  type AuditCheckpoint,
  type AuditEntry,
  auditKeyId,
  type ChainedAuditEntry,
  canonicalCheckpoint,
  entryHash,
  entryMac,
  hasValidMac,
} from './audit-entry.js';

/** The Ed25519 key a writer signs its checkpoints with. */
export interface AuditSigningKey {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** Where a writer's chain stands: its last entry's seq, MAC and public hash (0, '' and '' before the first). */
export interface AuditChainHead {
  readonly seq: number;
  readonly mac: string;
  /** Absent: the head entry has no public hash (written before it existed); the next starts from ''. */
  readonly hash?: string;
}

export const GENESIS: AuditChainHead = { seq: 0, mac: '' };

/** Defaults (docs/spec.md §9.4): a checkpoint every 1000 entries or 60 s, whichever comes first. */
export const CHECKPOINT_DEFAULTS = { every: 1000, seconds: 60 } as const;

export interface AuditChainOptions {
  /** Stable per gateway (its data directory), distinct between gateways sharing one store. */
  readonly writer: string;
  /** HMAC-SHA256 key, 32 bytes, kept outside the audit store. */
  readonly macKey: Uint8Array;
  readonly signingKey: AuditSigningKey;
  readonly checkpointEvery?: number;
  readonly checkpointSeconds?: number;
  /** Milliseconds since the epoch (the gateway's clock). */
  readonly now: () => number;
  /**
   * The head a witness outside the store last saw of this writer (at boot): the store must hold at
   * least this much of the chain. Absent: nothing was witnessed (a new chain).
   */
  readonly witnessed?: AuditChainHead;
  /** Told once, when the store is first found holding an older head than the writer last committed. */
  readonly onRegression?: (detail: string) => void;
  /**
   * Told the committed head after each commit that moved it (every group commit), before any write of
   * that commit is acknowledged: a witness outside the store then holds every acknowledged entry.
   */
  readonly onWitness?: (head: AuditChainHead) => void;
}

/**
 * One writer's chain, as a store appends to it. Not thread-safe by design: the store calls it from the
 * one place where its writes are serialised (SQLite's commit, a queue in front of PostgreSQL), `seal`s
 * each entry against the current head, and `advance`s only once the entry is stored; a failed write
 * leaves the head where it was, so the chain never skips a number.
 */
export class AuditChain {
  readonly writer: string;
  readonly #options: AuditChainOptions;
  readonly #macKey: KeyObject;
  #head: AuditChainHead = GENESIS;
  #checkpointed: AuditChainHead = GENESIS;
  #checkpointedAt: number;
  /** The newest head known to be in the store: the last committed by this writer, or the witnessed one. */
  #floor: AuditChainHead;
  /** The head last given to the witness. */
  #witnessedSeq: number;
  #regression: string | undefined;
  /** Where the store's chain was found, against the head it must hold. */
  #regressedAt: { storedSeq: number; reachedSeq: number } | undefined;

  constructor(options: AuditChainOptions) {
    if (options.macKey.length !== 32) throw new RangeError('the audit MAC key must be 32 bytes');
    this.writer = options.writer;
    this.#options = options;
    this.#macKey = createSecretKey(options.macKey);
    this.#checkpointedAt = options.now();
    this.#floor = options.witnessed ?? GENESIS;
    this.#witnessedSeq = this.#floor.seq;
  }

  get head(): AuditChainHead {
    return this.#head;
  }

  /**
   * Resumes from what the store holds (at open, or after a failed write of unknown effect). A head
   * older than the one this writer last committed (or than the witnessed one), or another entry at
   * that seq, means entries were removed: extending from there would make the loss verify clean, so
   * it throws AuditChainRegressedError, now and on every later call (the condition is kept).
   */
  restore(head: AuditChainHead, checkpointedSeq: number): void {
    if (this.#regression === undefined) {
      const floor = this.#floor;
      if (head.seq < floor.seq) {
        this.#regress(
          `writer ${this.writer}: the store's chain ends at seq ${head.seq}, but this writer had reached seq ${floor.seq}`,
          head.seq,
          floor.seq,
        );
      } else if (head.seq === floor.seq && floor.mac !== '' && head.mac !== floor.mac) {
        this.#regress(`writer ${this.writer}: the store's entry at seq ${head.seq} is not the one this writer wrote`, head.seq, floor.seq);
      }
    }
    if (this.#regression !== undefined) throw new AuditChainRegressedError(this.#regression, this.#regressedAt);
    this.#head = head;
    this.#checkpointed = { seq: checkpointedSeq, mac: '' };
  }

  /** Whether the store was found to have lost part of this chain (writes are refused for good). */
  get regression(): string | undefined {
    return this.#regression;
  }

  /**
   * The store committed everything sealed so far: the head is now the floor a later `restore` must
   * not go below, and the witness is told it whenever it moved (docs/operations.md "What is chained,
   * and with which keys"), so that entries removed from the store while the gateway is down (no
   * closing checkpoint after a kill) still stop the next boot.
   */
  committed(): void {
    this.#floor = this.#head;
    if (this.#head.seq <= this.#witnessedSeq) return;
    this.#witnessedSeq = this.#head.seq;
    this.#options.onWitness?.(this.#head);
  }

  #regress(detail: string, storedSeq: number, reachedSeq: number): void {
    this.#regression = detail;
    this.#regressedAt = { storedSeq, reachedSeq };
    this.#options.onRegression?.(detail);
  }

  /** The entry with its chain fields, placed right after the current head. Does not move the head. */
  seal(entry: AuditEntry, head: AuditChainHead = this.#head): ChainedAuditEntry {
    // One copy, its chain fields replaced (the MAC covers every field but `mac` itself). Object.assign,
    // not `{ ...entry, writer, ... }`: V8 of Node 20 adds fields after a spread copy slowly (~1 us each).
    const sealed: { -readonly [K in keyof ChainedAuditEntry]: ChainedAuditEntry[K] } = Object.assign({}, entry, {
      writer: this.writer,
      seq: head.seq + 1,
      prev: head.mac,
      mac: '',
      hash: '',
    });
    sealed.mac = entryMac(this.#macKey, sealed);
    sealed.hash = entryHash(head.hash ?? '', sealed);
    return sealed;
  }

  /**
   * The public hashes of this writer's stored entries that have none (written before the hash chain),
   * in seq order from its first entry, for as long as each entry's MAC holds under this writer's key
   * and links to the one before: an entry edited before the migration gets no hash, and neither does
   * any after it, so a verifier still reports it.
   */
  backfillHashes(entries: readonly ChainedAuditEntry[]): { seq: number; hash: string }[] {
    const filled: { seq: number; hash: string }[] = [];
    let previous: AuditChainHead = GENESIS;
    for (const entry of entries) {
      if (entry.writer !== this.writer || entry.seq !== previous.seq + 1 || entry.prev !== previous.mac) break;
      if (!hasValidMac(this.#options.macKey, entry)) break;
      const hash = entryHash(previous.hash ?? '', entry);
      if (entry.hash !== undefined && entry.hash !== hash) break;
      if (entry.hash === undefined) filled.push({ seq: entry.seq, hash });
      previous = { seq: entry.seq, mac: entry.mac, hash };
    }
    return filled;
  }

  /** The entry is stored: it is the new head. */
  advance(entry: ChainedAuditEntry): void {
    this.#head = { seq: entry.seq, mac: entry.mac, ...(entry.hash === undefined ? {} : { hash: entry.hash }) };
  }

  /** True when N entries were appended since the last checkpoint, or T seconds passed with at least one. */
  checkpointDue(): boolean {
    const since = this.#head.seq - this.#checkpointed.seq;
    if (since <= 0) return false;
    const every = this.#options.checkpointEvery ?? CHECKPOINT_DEFAULTS.every;
    const seconds = this.#options.checkpointSeconds ?? CHECKPOINT_DEFAULTS.seconds;
    return since >= every || this.#options.now() - this.#checkpointedAt >= seconds * 1000;
  }

  /** A signed checkpoint of the current head, or undefined when nothing was appended since the last. */
  checkpoint(): AuditCheckpoint | undefined {
    if (this.#head.seq === 0 || this.#head.seq === this.#checkpointed.seq) return undefined;
    const hash = this.#head.hash === undefined ? {} : { hash: this.#head.hash };
    const content = { writer: this.writer, seq: this.#head.seq, mac: this.#head.mac, ...hash, at: this.#options.now() };
    const signature = sign(null, canonicalCheckpoint(content), this.#options.signingKey.privateKey).toString('base64');
    return { ...content, keyId: this.#options.signingKey.keyId, signature };
  }

  /** The checkpoint is stored. */
  checkpointed(checkpoint: AuditCheckpoint): void {
    this.#checkpointed = { seq: checkpoint.seq, mac: checkpoint.mac };
    this.#checkpointedAt = checkpoint.at;
  }
}

/** The signing key of an Ed25519 private key: its public half and key id. */
export function auditSigningKey(privateKey: KeyObject): AuditSigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('an audit signing key is an Ed25519 private key');
  const publicKey = createPublicKey(privateKey);
  return { keyId: auditKeyId(publicKey), privateKey, publicKey };
}
