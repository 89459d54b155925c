import { type KeyObject, verify } from 'node:crypto';
import { type AuditBreak, type AuditBreakKind, BreakList, type TimedBreak } from './audit-breaks.js';
import {
  type AuditCheckpoint,
  type AuditEntry,
  type ChainedAuditEntry,
  canonicalCheckpoint,
  hasValidMac,
  isChained,
} from './audit-entry.js';
import { type HashWalk, hashStep, signedHashBreak } from './audit-hash-chain.js';
import { AUDIT_CHAIN_RESTART_OPERATION, parseChainRestart } from './audit-restart.js';
import { type WitnessedHead, witnessBreaks } from './audit-witness.js';

export { AUDIT_BREAK_KINDS, type AuditBreak, type AuditBreakKind } from './audit-breaks.js';

export interface AuditWriterSummary {
  readonly writer: string;
  readonly entries: number;
  /** The last seq seen (0 when none). */
  readonly lastSeq: number;
  /** The seq of the last checkpoint whose signature holds, or null. */
  readonly lastCheckpoint: number | null;
  /** The breaks found in this writer's chain, its checkpoints and its witnessed head. */
  readonly breaks: number;
  /** How many of them `breaks` of the answer does not list (past the first 100 of this writer). */
  readonly unlisted: number;
}

/** The verify answer: `GET /api/audit/verify` and `keygate audit verify` print it as is. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly checked: number;
  readonly writers: readonly AuditWriterSummary[];
  /** Every break, writer after writer (by name), each writer's in seq order; at most 100 per writer. */
  readonly breaks: readonly AuditBreak[];
  /** The earliest break in time across writers (of the chains and checkpoints, else of a witness). */
  readonly firstBreak?: AuditBreak;
}

/** What the verifier trusts and how the entries were selected. */
export interface AuditVerifyOptions {
  readonly checkpoints: readonly AuditCheckpoint[];
  /** The HMAC key: without it, links and signed heads are checked but not each entry's content. */
  readonly macKey?: Uint8Array;
  /** Trusted checkpoint keys by key id. */
  readonly publicKeys: ReadonlyMap<string, KeyObject>;
  /** The entries are a slice of each chain (a time range): its first entry's link is taken as given. */
  readonly partial?: boolean;
  /**
   * Each writer's head as a witness outside the audit store saw it (a whole-log verify only): a chain
   * that ends below it, or holds another entry at its seq, is a break.
   */
  readonly witnessed?: readonly WitnessedHead[];
}

export interface AuditVerifyInput extends AuditVerifyOptions {
  readonly entries: readonly AuditEntry[];
}

/**
 * Verifies chains and checkpoints held whole in memory (an export file, tests): the entries are put
 * in chain order and given to one `AuditLogVerifier`.
 */
export function verifyAuditLog(input: AuditVerifyInput): AuditVerification {
  const verifier = new AuditLogVerifier(input);
  verifier.add(inChainOrder(input.entries));
  return verifier.result();
}

/**
 * The order `AuditLogVerifier.add` takes: the unchained entries first (by `at`, then `id`), then each
 * writer's entries by seq (then id), writer after writer. One pass to group, one sort per group.
 */
export function inChainOrder(entries: readonly AuditEntry[]): AuditEntry[] {
  const unchained: AuditEntry[] = [];
  const byWriter = new Map<string, ChainedAuditEntry[]>();
  for (const entry of entries) {
    if (!isChained(entry)) unchained.push(entry);
    else if (byWriter.has(entry.writer)) byWriter.get(entry.writer)!.push(entry);
    else byWriter.set(entry.writer, [entry]);
  }
  const ordered = unchained.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const writer of [...byWriter.keys()].sort()) {
    for (const entry of byWriter.get(writer)!.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1))) ordered.push(entry);
  }
  return ordered;
}

/** One writer's walk so far. */
interface WriterWalk {
  readonly writer: string;
  readonly checkpoints: readonly AuditCheckpoint[];
  entries: number;
  firstSeq: number | undefined;
  lastSeq: number;
  expected: number;
  prevMac: string;
  /** The latest entry, checked once its successor (or the end of the chain) is known. */
  held: ChainedAuditEntry | undefined;
  /** The second entry of a swapped pair, already reported with the first: passed over once. */
  skip: number | undefined;
  /** Breaks of the entry walk, then of the checkpoints, then of the witness. */
  readonly breaks: BreakList;
  /** The first break of the entry walk or, without one, of the checkpoints: `firstBreak`'s candidate. */
  first: TimedBreak | undefined;
  /** Signed seqs whose entry the walk already reported: their checkpoint does not report it again. */
  readonly brokenSignedSeqs: Set<number>;
  /** The entries at the seqs its checkpoints sign (a clean chain has exactly one per seq). */
  readonly checkpointsAt: ReadonlyMap<number, readonly AuditCheckpoint[]>;
  readonly atSignedSeq: Map<number, ChainedAuditEntry>;
  /** Each checkpoint's signature, checked once: when the walk reaches its seq, else at the end. */
  readonly signatures: Map<AuditCheckpoint, boolean>;
  /** The public hash chain so far. */
  readonly hashes: HashWalk;
  /** The seqs a witness saw as this writer's head, and the entries found there. */
  readonly witnessedSeqs: ReadonlySet<number>;
  readonly atWitnessedSeq: Map<number, ChainedAuditEntry>;
}

/**
 * Verifies chains and checkpoints page by page, with no I/O and work linear in the entries: only each
 * writer's walk and the entries its checkpoints sign are kept. Each writer's entries are walked in seq
 * order: every entry must carry the next seq, link to its predecessor's MAC and (with the key) carry
 * its own MAC; then every checkpoint must be signed by a trusted key and match the entry at its seq.
 * Each break is classified by what its neighbours still link to, and the walk goes on from the broken
 * entry as it stands (a swapped pair is passed as one), so a break planted early never hides a later
 * one: every break is reported, at most 100 listed per writer (docs/spec.md §9.5).
 */
export class AuditLogVerifier {
  readonly #options: AuditVerifyOptions;
  readonly #walks = new Map<string, WriterWalk>();
  readonly #done = new Set<string>();
  #current: WriterWalk | undefined;
  #checked = 0;
  #unchained = 0;
  #firstUnchained: AuditEntry | undefined;
  readonly #witnessedSeqs = new Map<string, Set<number>>();
  /** Restart entries seen, by the writer whose chain they replace (docs/spec.md §9.6). */
  readonly #restarts = new Map<string, { writer: string; seq: number; storedSeq: number }>();

  constructor(options: AuditVerifyOptions) {
    this.#options = options;
    for (const head of options.witnessed ?? []) {
      if (this.#witnessedSeqs.has(head.writer)) this.#witnessedSeqs.get(head.writer)!.add(head.seq);
      else this.#witnessedSeqs.set(head.writer, new Set([head.seq]));
    }
    const byWriter = new Map<string, AuditCheckpoint[]>();
    for (const checkpoint of options.checkpoints) {
      if (byWriter.has(checkpoint.writer)) byWriter.get(checkpoint.writer)!.push(checkpoint);
      else byWriter.set(checkpoint.writer, [checkpoint]);
    }
    for (const [writer, checkpoints] of byWriter)
      this.#walks.set(
        writer,
        newWalk(
          writer,
          checkpoints.sort((a, b) => a.seq - b.seq),
          this.#witnessedSeqs.get(writer),
        ),
      );
  }

  /**
   * The next entries in chain order (`inChainOrder`): unchained ones may come anywhere, but a
   * writer's entries come together, by seq, and once another writer's begin it has no more.
   */
  add(entries: readonly AuditEntry[]): void {
    for (const entry of entries) {
      this.#checked += 1;
      if (!isChained(entry)) {
        this.#unchained += 1;
        this.#firstUnchained ??= entry;
        continue;
      }
      if (entry.operation === AUDIT_CHAIN_RESTART_OPERATION) this.#noteRestart(entry);
      const walk = this.#walkOf(entry.writer);
      walk.entries += 1;
      walk.lastSeq = entry.seq;
      if (walk.witnessedSeqs.has(entry.seq)) walk.atWitnessedSeq.set(entry.seq, entry);
      if (walk.checkpointsAt.has(entry.seq) && !walk.atSignedSeq.has(entry.seq)) walk.atSignedSeq.set(entry.seq, entry);
      if (walk.held === undefined) {
        walk.firstSeq = entry.seq;
        if (this.#options.partial) [walk.expected, walk.prevMac] = [entry.seq, entry.prev];
      } else {
        walkBreaks(walk, step(walk, walk.held, entry, this.#options));
      }
      walk.held = entry;
    }
  }

  /** The answer, once every entry was added. */
  result(): AuditVerification {
    this.#end();
    const summaries: AuditWriterSummary[] = [];
    const listed: AuditBreak[] = [];
    const firsts: TimedBreak[] = [];
    const first = this.#firstUnchained;
    if (first !== undefined) {
      const unchained = {
        writer: '',
        seq: 0,
        id: first.id,
        kind: 'inserted' as const,
        detail: `${this.#unchained} entries carry no chain fields`,
      };
      firsts.push({ at: first.at, found: unchained });
      listed.push(unchained);
    }
    // A writer known only to its witness (every entry and checkpoint gone) is reported like the others.
    for (const [writer, seqs] of this.#witnessedSeqs) if (!this.#walks.has(writer)) this.#walks.set(writer, newWalk(writer, [], seqs));
    const witnessed = witnessBreaks(this.#options.witnessed ?? [], (writer) => this.#walks.get(writer));
    for (const writer of [...this.#walks.keys()].sort()) {
      const walk = this.#walks.get(writer)!;
      const holding = walk.checkpoints.filter((c) => signed(walk, c, this.#options));
      const lastCheckpoint = holding.length === 0 ? null : holding[holding.length - 1]!.seq;
      for (const found of checkCheckpoints(walk, this.#options)) {
        walk.breaks.add(found);
        walk.first ??= found;
      }
      if (walk.first !== undefined) firsts.push(walk.first);
      for (const found of witnessed) {
        // A checkpoint that already shows the chain cut at or past the witnessed seq says it all.
        if (found.writer === writer && !(found.kind === 'truncated' && truncatedFrom(walk, found.seq)))
          walk.breaks.add({ found: this.#restarted(found), at: Number.MAX_SAFE_INTEGER });
      }
      summaries.push({
        writer,
        entries: walk.entries,
        lastSeq: walk.lastSeq,
        lastCheckpoint,
        breaks: walk.breaks.count,
        unlisted: walk.breaks.unlisted,
      });
      listed.push(...[...walk.breaks.listed].sort((a, b) => a.found.seq - b.found.seq).map((timed) => timed.found));
    }
    firsts.sort((a, b) => a.at - b.at);
    // A witnessed head speaks of a chain that is otherwise whole: an earlier break comes first.
    const firstBreak = firsts[0]?.found ?? (witnessed[0] === undefined ? undefined : this.#restarted(witnessed[0]));
    return { ok: listed.length === 0, checked: this.#checked, writers: summaries, breaks: listed, ...(firstBreak ? { firstBreak } : {}) };
  }

  #noteRestart(entry: ChainedAuditEntry): void {
    const restart = parseChainRestart(entry.object);
    if (restart !== undefined) this.#restarts.set(restart.writer, { writer: entry.writer, seq: entry.seq, storedSeq: restart.storedSeq });
  }

  /** A witnessed chain cut short whose writer was replaced by a new chain says where the restart is recorded. */
  #restarted<T extends AuditBreak>(found: T): T {
    const restart = this.#restarts.get(found.writer);
    if (found.kind !== 'truncated' || restart === undefined) return found;
    return {
      ...found,
      detail: `${found.detail}; writer ${restart.writer} began a new chain in its place, its seq ${restart.seq} records the restart after seq ${restart.storedSeq}`,
    };
  }

  #walkOf(writer: string): WriterWalk {
    if (this.#current?.writer === writer) return this.#current;
    this.#end();
    if (this.#done.has(writer)) throw new Error(`the entries of writer ${writer} are not given together`);
    let walk = this.#walks.get(writer);
    if (walk === undefined) {
      walk = newWalk(writer, [], this.#witnessedSeqs.get(writer));
      this.#walks.set(writer, walk);
    }
    this.#current = walk;
    return walk;
  }

  /** The current writer's chain has ended: its last entry is checked with no successor. */
  #end(): void {
    const walk = this.#current;
    if (walk === undefined) return;
    if (walk.held !== undefined) walkBreaks(walk, step(walk, walk.held, undefined, this.#options));
    walk.held = undefined;
    this.#done.add(walk.writer);
    this.#current = undefined;
  }
}

function newWalk(writer: string, checkpoints: readonly AuditCheckpoint[], witnessedSeqs: ReadonlySet<number> = new Set()): WriterWalk {
  return {
    writer,
    checkpoints,
    entries: 0,
    firstSeq: undefined,
    lastSeq: 0,
    expected: 1,
    prevMac: '',
    held: undefined,
    skip: undefined,
    breaks: new BreakList(),
    first: undefined,
    brokenSignedSeqs: new Set(),
    checkpointsAt: bySeq(checkpoints),
    atSignedSeq: new Map(),
    signatures: new Map(),
    hashes: { previous: '', hashed: false, first: true },
    witnessedSeqs,
    atWitnessedSeq: new Map(),
  };
}

function bySeq(checkpoints: readonly AuditCheckpoint[]): Map<number, AuditCheckpoint[]> {
  const at = new Map<number, AuditCheckpoint[]>();
  for (const checkpoint of checkpoints) {
    if (at.has(checkpoint.seq)) at.get(checkpoint.seq)!.push(checkpoint);
    else at.set(checkpoint.seq, [checkpoint]);
  }
  return at;
}

function broken(entry: ChainedAuditEntry, kind: AuditBreakKind, detail: string): TimedBreak {
  return { found: { writer: entry.writer, seq: entry.seq, id: entry.id, kind, detail }, at: entry.at };
}

/** The walk's breaks at one entry, kept; a signed seq among them is not reported again by its checkpoint. */
function walkBreaks(walk: WriterWalk, found: readonly TimedBreak[]): void {
  for (const timed of found) {
    walk.breaks.add(timed);
    walk.first ??= timed;
    if (walk.checkpointsAt.has(timed.found.seq)) walk.brokenSignedSeqs.add(timed.found.seq);
  }
}

/** The walk goes on from `entry` as it stands: the next entry is checked against it. */
function resumeAfter(walk: WriterWalk, entry: ChainedAuditEntry): void {
  walk.prevMac = entry.mac;
  walk.expected = entry.seq + 1;
  walk.hashes.first = false;
  if (entry.hash !== undefined) [walk.hashes.previous, walk.hashes.hashed] = [entry.hash, true];
}

/** An entry the walk already stepped past is, by its own MAC (which covers its stored `prev`), also edited. */
function alsoEdited(entry: ChainedAuditEntry, options: AuditVerifyOptions): TimedBreak[] {
  return options.macKey && !hasValidMac(options.macKey, entry) ? [broken(entry, 'edited', 'its content does not match its MAC')] : [];
}

/**
 * Checks one entry's seq, link and MAC, classified by what the next entry links to, and moves the walk
 * on: past the entry when it holds or was edited or follows a gap, over it when it was inserted, and
 * over both of a swapped pair. Answers the breaks found at this entry (none when it holds).
 */
function step(walk: WriterWalk, entry: ChainedAuditEntry, next: ChainedAuditEntry | undefined, options: AuditVerifyOptions): TimedBreak[] {
  const { expected, prevMac } = walk;
  if (walk.skip === entry.seq) {
    walk.skip = undefined;
    walk.expected = entry.seq + 1;
    return [];
  }
  if (entry.seq < expected) return [broken(entry, 'inserted', `a second entry with seq ${entry.seq}`)];
  if (entry.seq > expected) {
    const missing = entry.seq - 1 === expected ? `seq ${expected} is` : `seq ${expected} to ${entry.seq - 1} are`;
    resumeAfter(walk, entry);
    return [broken(entry, 'deleted', `${missing} missing before this entry`), ...alsoEdited(entry, options)];
  }
  const nextSkipsThis = next !== undefined && next.prev === prevMac && next.prev !== entry.mac;
  if (entry.prev !== prevMac) {
    if (nextSkipsThis && entry.prev === next.mac) {
      resumeAfter(walk, entry);
      walk.skip = next.seq;
      return [broken(entry, 'reordered', `seq ${entry.seq} and ${next.seq} are swapped`)];
    }
    if (nextSkipsThis) return passOver(walk, entry);
    resumeAfter(walk, entry);
    return [
      broken(entry, 'deleted', 'this entry does not link to the one before it: an entry between them is missing'),
      ...alsoEdited(entry, options),
    ];
  }
  if (nextSkipsThis) return passOver(walk, entry);
  if (options.macKey && !hasValidMac(options.macKey, entry)) {
    resumeAfter(walk, entry);
    return [broken(entry, 'edited', 'its content does not match its MAC')];
  }
  const hashBreak = hashStep(walk.hashes, entry, options.partial === true);
  if (hashBreak) {
    resumeAfter(walk, entry);
    return [hashBreak];
  }
  const signing = walk.checkpointsAt.get(entry.seq);
  if (signing !== undefined) for (const checkpoint of signing) signed(walk, checkpoint, options);
  walk.prevMac = entry.mac;
  walk.expected = entry.seq + 1;
  return [];
}

/** An entry the next one links past: reported, and the walk goes on as if it were not there. */
function passOver(walk: WriterWalk, entry: ChainedAuditEntry): TimedBreak[] {
  walk.expected = entry.seq + 1;
  return [broken(entry, 'inserted', 'the next entry links past this one')];
}

/** Whether a checkpoint break already shows this writer's chain cut at or past `seq`. */
function truncatedFrom(walk: WriterWalk, seq: number): boolean {
  return walk.breaks.listed.some((timed) => timed.found.kind === 'truncated' && timed.found.seq >= seq);
}

/**
 * Every checkpoint signed by a trusted key, and the chain still holding the head it signed; a signed
 * entry the walk already reported is not reported again. Answers every break, in checkpoint order.
 */
function checkCheckpoints(walk: WriterWalk, options: AuditVerifyOptions): TimedBreak[] {
  const { writer, lastSeq } = walk;
  const firstSeq = walk.firstSeq ?? 1;
  const found: TimedBreak[] = [];
  const at = (checkpoint: AuditCheckpoint, kind: AuditBreakKind, detail: string) =>
    found.push({ found: { writer, seq: checkpoint.seq, kind, detail }, at: checkpoint.at });
  for (const checkpoint of walk.checkpoints) {
    if (!signed(walk, checkpoint, options)) {
      const why = options.publicKeys.has(checkpoint.keyId)
        ? 'its signature does not hold'
        : `it names key ${checkpoint.keyId}, which is not trusted`;
      at(checkpoint, 'forged-checkpoint', `checkpoint at seq ${checkpoint.seq}: ${why}`);
      continue;
    }
    if (options.partial && checkpoint.seq < firstSeq) continue;
    const entry = walk.atSignedSeq.get(checkpoint.seq);
    if (entry === undefined && checkpoint.seq > lastSeq) {
      const ends = lastSeq === 0 ? 'has no entries' : `ends at seq ${lastSeq}`;
      at(checkpoint, 'truncated', `writer ${writer} ${ends}, but a checkpoint signed seq ${checkpoint.seq}`);
      continue;
    }
    if (entry === undefined) {
      at(checkpoint, 'deleted', `seq ${checkpoint.seq}, signed by a checkpoint, is missing`);
      continue;
    }
    if (walk.brokenSignedSeqs.has(checkpoint.seq)) continue;
    if (entry.mac !== checkpoint.mac) {
      found.push(broken(entry, 'edited', `the entry at seq ${entry.seq} is not the one its checkpoint signed`));
      walk.brokenSignedSeqs.add(checkpoint.seq);
      continue;
    }
    const hashBreak = signedHashBreak(entry, checkpoint);
    if (hashBreak) {
      found.push(hashBreak);
      walk.brokenSignedSeqs.add(checkpoint.seq);
    }
  }
  return found;
}

function signed(walk: WriterWalk, checkpoint: AuditCheckpoint, options: AuditVerifyOptions): boolean {
  let holds = walk.signatures.get(checkpoint);
  if (holds === undefined) {
    holds = signatureHolds(checkpoint, options.publicKeys);
    walk.signatures.set(checkpoint, holds);
  }
  return holds;
}

function signatureHolds(checkpoint: AuditCheckpoint, keys: ReadonlyMap<string, KeyObject>): boolean {
  const key = keys.get(checkpoint.keyId);
  if (key === undefined) return false;
  try {
    return verify(null, canonicalCheckpoint(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}
