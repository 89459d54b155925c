import type { SessionRecord } from '../../domain/session/session.js';
import type { Clock } from '../../ports/clock.port.js';
import type { SessionStore } from '../../ports/session-store.port.js';
import { ExpiryHeap } from '../expiry-heap.js';

/**
 * Sessions in this process's memory, keyed by the session id's hash. Forgets records at `expiresAt`:
 * a min-heap on `expiresAt` yields the expired ones in order, so no call ever scans the store; `count`
 * is the map's size once the records due have left (amortised O(log n) each), and a principal's
 * sessions come from its own index (O(its sessions)).
 */
export class MemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #byPrincipal = new Map<string, Set<string>>();
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
    this.#records.set(key, record);
    index(this.#byPrincipal, record.identity.principalId, key);
    if (record.actingFor !== undefined) index(this.#byService, record.actingFor, key);
    this.#expiry.push(key, record.expiresAt, record);
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
    const keys = this.#byPrincipal.get(principalId);
    if (keys === undefined) return [];
    return [...keys].map((key) => this.#records.get(key)!);
  }

  /** O(1) once the records due have left: the size of the principal's own index. */
  async countByPrincipal(principalId: string): Promise<number> {
    this.#expire();
    return this.#byPrincipal.get(principalId)?.size ?? 0;
  }

  async deleteByPrincipal(principalId: string, exceptKey?: string): Promise<number> {
    this.#expire();
    const doomed = [...(this.#byPrincipal.get(principalId) ?? [])].filter((key) => key !== exceptKey);
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
    unindex(this.#byPrincipal, record.identity.principalId, key);
    if (record.actingFor !== undefined) unindex(this.#byService, record.actingFor, key);
  }
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
