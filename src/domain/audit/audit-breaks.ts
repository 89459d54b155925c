/** What a break in the history looks like (docs/spec.md §9.5). */
export const AUDIT_BREAK_KINDS = ['edited', 'deleted', 'inserted', 'reordered', 'truncated', 'forged-checkpoint'] as const;
export type AuditBreakKind = (typeof AUDIT_BREAK_KINDS)[number];

export interface AuditBreak {
  readonly writer: string;
  readonly seq: number;
  readonly id?: string;
  readonly kind: AuditBreakKind;
  readonly detail: string;
}

/** Breaks listed per writer at most (docs/spec.md §9.5); the rest are counted, not listed. */
export const AUDIT_BREAKS_LISTED_PER_WRITER = 100;

/** A break and when its entry (or checkpoint) was written, for ordering across writers. */
export interface TimedBreak {
  readonly found: AuditBreak;
  readonly at: number;
}

/**
 * One writer's breaks: the first `limit` listed in the order found, every one counted. Memory stays
 * bounded however much of a chain is broken.
 */
export class BreakList {
  readonly #limit: number;
  readonly #listed: TimedBreak[] = [];
  #count = 0;

  constructor(limit = AUDIT_BREAKS_LISTED_PER_WRITER) {
    this.#limit = limit;
  }

  add(timed: TimedBreak | undefined): void {
    if (timed === undefined) return;
    this.#count += 1;
    if (this.#listed.length < this.#limit) this.#listed.push(timed);
  }

  get count(): number {
    return this.#count;
  }

  get listed(): readonly TimedBreak[] {
    return this.#listed;
  }

  /** Found but not listed. */
  get unlisted(): number {
    return this.#count - this.#listed.length;
  }

  /** Whether a break of this kind is listed at this seq. */
  has(seq: number, kind: AuditBreak['kind']): boolean {
    return this.#listed.some((timed) => timed.found.seq === seq && timed.found.kind === kind);
  }
}
