import type { SessionRecord } from '../../domain/session/session.js';
import type { Clock } from '../../ports/clock.port.js';
import type { SessionStore } from '../../ports/session-store.port.js';

/** Sessions in this process's memory, keyed by the session id's hash. Forgets records at `expiresAt`. */
export class MemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async put(key: string, record: SessionRecord): Promise<void> {
    this.#sweep();
    this.#records.set(key, record);
  }

  async get(key: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(key);
    if (record && record.expiresAt <= this.#clock.now()) {
      this.#records.delete(key);
      return undefined;
    }
    return record;
  }

  async delete(key: string): Promise<boolean> {
    const record = await this.get(key);
    this.#records.delete(key);
    return record !== undefined;
  }

  async listByPrincipal(principalId: string): Promise<SessionRecord[]> {
    this.#sweep();
    return [...this.#records.values()].filter((record) => record.identity.principalId === principalId);
  }

  async deleteByPrincipal(principalId: string, exceptKey?: string): Promise<number> {
    let removed = 0;
    for (const [key, record] of this.#records) {
      if (key !== exceptKey && record.identity.principalId === principalId && this.#records.delete(key)) removed++;
    }
    return removed;
  }

  async count(): Promise<number> {
    this.#sweep();
    return this.#records.size;
  }

  async close(): Promise<void> {
    this.#records.clear();
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, record] of this.#records) if (record.expiresAt <= now) this.#records.delete(key);
  }
}
