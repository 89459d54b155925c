import type { SessionRecord } from '../../domain/session/session.js';
import type { Clock } from '../../ports/clock.port.js';
import type { SessionStore } from '../../ports/session-store.port.js';
import type { Identity } from '../../wire/identity.js';
import { ExpiryHeap } from '../expiry-heap.js';

/** A principal's live sessions: their keys, and the identity they share while it reads the same. */
interface PrincipalSessions {
  readonly keys: Set<string>;
  readonly identity: Identity;
}

/**
 * Sessions in this process's memory, keyed by the session id's hash. Forgets records at `expiresAt`:
 * a min-heap on `expiresAt` yields the expired ones in order, so no call ever scans the store; `count`
 * is the map's size once the records due have left (amortised O(log n) each), and a principal's
 * sessions come from its own index (O(its sessions)). A record is kept compact: one object of its own
 * fields, the identity it shares with its principal's other sessions when it reads the same
 * (`compactRecord`), its expiry unboxed in the heap.
 */
export class MemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #byPrincipal = new Map<string, PrincipalSessions>();
  /** Delegated records by the service that minted them (`actingFor`). */
  readonly #byService = new Map<string, Set<string>>();
  readonly #expiry = new ExpiryHeap<SessionRecord>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async put(key: string, record: SessionRecord): Promise<void> {
    this.#expire();
    this.#remove(key);
    if (record.expiresAt <= this.#clock.now()) return;
    const compact = compactRecord(record, this.#principalIndex(record.identity));
    this.#records.set(key, compact);
    this.#byPrincipal.get(compact.identity.principalId)!.keys.add(key);
    if (record.actingFor !== undefined) index(this.#byService, record.actingFor, key);
    this.#expiry.push(key, record.expiresAt, compact);
  }

  async get(key: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(key);
    if (record === undefined) return undefined;
    if (record.expiresAt > this.#clock.now()) return record;
    this.#remove(key);
    return undefined;
  }

  async delete(key: string): Promise<boolean> {
    const live = (await this.get(key)) !== undefined;
    this.#remove(key);
    return live;
  }

  async listByPrincipal(principalId: string): Promise<SessionRecord[]> {
    this.#expire();
    const held = this.#byPrincipal.get(principalId);
    if (held === undefined) return [];
    return [...held.keys].map((key) => this.#records.get(key)!);
  }

  /** O(1) once the records due have left: the size of the principal's own index. */
  async countByPrincipal(principalId: string): Promise<number> {
    this.#expire();
    return this.#byPrincipal.get(principalId)?.keys.size ?? 0;
  }

  async deleteByPrincipal(principalId: string, exceptKey?: string): Promise<number> {
    this.#expire();
    const doomed = [...(this.#byPrincipal.get(principalId)?.keys ?? [])].filter((key) => key !== exceptKey);
    for (const key of doomed) this.#remove(key);
    return doomed.length;
  }

  async deleteActingFor(serviceName: string): Promise<number> {
    this.#expire();
    const doomed = [...(this.#byService.get(serviceName) ?? [])];
    for (const key of doomed) this.#remove(key);
    return doomed.length;
  }

  async count(): Promise<number> {
    this.#expire();
    return this.#records.size;
  }

  async close(): Promise<void> {
    this.#records.clear();
    this.#byPrincipal.clear();
    this.#byService.clear();
    this.#expiry.clear();
  }

  /** The principal's entry of the index, made with this identity when it has none: the identity its sessions share. */
  #principalIndex(identity: Identity): Identity {
    let held = this.#byPrincipal.get(identity.principalId);
    if (held === undefined) {
      held = { keys: new Set(), identity: { user: identity.user, systemId: identity.systemId, principalId: identity.principalId } };
      this.#byPrincipal.set(identity.principalId, held);
    }
    return held.identity;
  }

  /** Drops every record whose `expiresAt` has come; a heap entry of a replaced record is skipped. */
  #expire(): void {
    const now = this.#clock.now();
    for (let due = this.#expiry.popDue(now); due !== undefined; due = this.#expiry.popDue(now)) {
      if (this.#records.get(due.key) === due.value) this.#remove(due.key);
    }
  }

  #remove(key: string): void {
    const record = this.#records.get(key);
    if (record === undefined) return;
    this.#records.delete(key);
    const held = this.#byPrincipal.get(record.identity.principalId);
    held?.keys.delete(key);
    if (held?.keys.size === 0) this.#byPrincipal.delete(record.identity.principalId);
    if (record.actingFor !== undefined) unindex(this.#byService, record.actingFor, key);
  }
}

/** The fields a SessionRecord may leave unset. */
type OptionalField = { [K in keyof SessionRecord]-?: undefined extends SessionRecord[K] ? K : never }[keyof SessionRecord];

/**
 * The optional fields `compactRecord` copies, in the order it adds them. The required fields are the
 * literal in `compactRecord`, whose type requires each; this list must name each optional one, so a
 * field added to SessionRecord does not compile until the copy keeps it.
 */
const OPTIONAL_FIELDS = Object.keys({
  jkt: true,
  objects: true,
  rights: true,
  actingFor: true,
} as const satisfies Record<OptionalField, true>) as readonly OptionalField[];

type CompactRecord = { -readonly [K in keyof SessionRecord]: SessionRecord[K] };

/**
 * The record as the store keeps it: its fields in one object literal (no spread, so no second
 * property store), with the identity its principal's sessions share when this one reads the same.
 */
function compactRecord(record: SessionRecord, shared: Identity): SessionRecord {
  const { identity } = record;
  const same = identity.user === shared.user && identity.systemId === shared.systemId && identity.principalId === shared.principalId;
  const compact: CompactRecord = {
    ref: record.ref,
    identity: same ? shared : identity,
    token: record.token,
    kind: record.kind,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
  };
  for (const field of OPTIONAL_FIELDS) copyIfSet(compact, record, field);
  return compact;
}

function copyIfSet<K extends OptionalField>(to: CompactRecord, from: SessionRecord, field: K): void {
  if (from[field] !== undefined) to[field] = from[field];
}

function index(byOwner: Map<string, Set<string>>, owner: string, key: string): void {
  let keys = byOwner.get(owner);
  if (keys === undefined) {
    keys = new Set();
    byOwner.set(owner, keys);
  }
  keys.add(key);
}

function unindex(byOwner: Map<string, Set<string>>, owner: string, key: string): void {
  const keys = byOwner.get(owner);
  keys?.delete(key);
  if (keys?.size === 0) byOwner.delete(owner);
}
