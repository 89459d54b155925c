import type { AuditRecord } from './audit.js';

/**
 * A new chain (docs/spec.md §9.6) is a new writer: the gateway's writer id, `~`, and the chain's
 * number (2, 3, ...). `~` is outside the characters a configured writer id may hold, so a restarted
 * chain never takes another gateway's id; the old chain and its witnessed head stay as they were.
 */
const CHAIN_SEPARATOR = '~';

/** The operation of the first entry of a restarted chain. */
export const AUDIT_CHAIN_RESTART_OPERATION = 'audit.chainRestarted';

/** What the first entry of a new chain records of the chain it replaces. */
export interface AuditChainRestart {
  /** The writer of the chain that lost entries. */
  readonly writer: string;
  /** The last seq of that writer the store still held. */
  readonly storedSeq: number;
  /** The seq its witness saw (the chain reached at least this far). */
  readonly witnessedSeq: number;
  /** The MAC of the entry its witness saw at `witnessedSeq`. */
  readonly witnessedMac: string;
}

/** The number of `writer`'s chain among the chains of gateway `base` (1 for `base` itself), else undefined. */
function chainNumber(base: string, writer: string): number | undefined {
  if (writer === base) return 1;
  if (!writer.startsWith(`${base}${CHAIN_SEPARATOR}`)) return undefined;
  const number = writer.slice(base.length + 1);
  return /^[1-9][0-9]{0,8}$/.test(number) ? Number(number) : undefined;
}

/** The highest chain number of `base` among `writers` (1 when none is there). */
function latestNumber(base: string, writers: readonly string[]): number {
  let latest = 1;
  for (const writer of writers) latest = Math.max(latest, chainNumber(base, writer) ?? 1);
  return latest;
}

/** The writer of gateway `base`'s current chain: the newest of its chains `writers` holds, else `base`. */
export function currentChainWriter(base: string, writers: readonly string[]): string {
  const latest = latestNumber(base, writers);
  return latest === 1 ? base : `${base}${CHAIN_SEPARATOR}${latest}`;
}

/** The writer of gateway `base`'s next chain, after every one `writers` holds. */
export function nextChainWriter(base: string, writers: readonly string[]): string {
  return `${base}${CHAIN_SEPARATOR}${latestNumber(base, writers) + 1}`;
}

/**
 * The first entry of a new chain: which chain it replaces, how far the store still held that chain
 * and how far its witness saw it. Chained, MAC'd and hashed like every entry; its `object` is the
 * JSON of the restart (keys in this order), so an auditor finds it by operation or by text.
 */
export function chainRestartRecord(id: string, at: number, restart: AuditChainRestart): AuditRecord {
  const { writer, storedSeq, witnessedSeq, witnessedMac } = restart;
  return {
    id,
    at,
    requestId: id,
    operation: AUDIT_CHAIN_RESTART_OPERATION,
    object: JSON.stringify({ writer, storedSeq, witnessedSeq, witnessedMac }),
    outcome: 'ok',
    status: 0,
  };
}

/** The restart an entry's `object` records, or undefined when it is not one. */
export function parseChainRestart(object: string | undefined): AuditChainRestart | undefined {
  if (object === undefined) return undefined;
  try {
    const parsed = JSON.parse(object) as Partial<AuditChainRestart> | null;
    const { writer, storedSeq, witnessedSeq, witnessedMac } = parsed ?? {};
    if (
      typeof writer !== 'string' ||
      !Number.isSafeInteger(storedSeq) ||
      !Number.isSafeInteger(witnessedSeq) ||
      typeof witnessedMac !== 'string'
    )
      return undefined;
    return { writer, storedSeq: storedSeq!, witnessedSeq: witnessedSeq!, witnessedMac };
  } catch {
    return undefined;
  }
}
