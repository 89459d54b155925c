import type { SessionRecord } from '../domain/session/session.js';
import { token } from './token.js';

/**
 * Where the gateway keeps sessions, keyed by `sessionKey(sessionId)` (a hash: the store never sees a
 * session id). Every method is async so that a networked store (Redis) fits the same contract
 * (`test/ports/session-store.contract.ts`).
 *
 * Expiry: a record is gone once `now >= record.expiresAt` by the store's clock; `get` never returns it
 * and `count` never counts it. A store that cannot be reached throws `SessionStoreUnavailableError`.
 */
export interface SessionStore {
  /** Stores (or replaces) the record under `key`. */
  put(key: string, record: SessionRecord): Promise<void>;
  /** The live record under `key`, or undefined. */
  get(key: string): Promise<SessionRecord | undefined>;
  /** Removes the record; true when a live one was there. */
  delete(key: string): Promise<boolean>;
  /** Live records of one principal (by principal id). */
  listByPrincipal(principalId: string): Promise<SessionRecord[]>;
  /** How many live records one principal has (what `listByPrincipal` would list, without listing them). */
  countByPrincipal(principalId: string): Promise<number>;
  /** Removes every record of one principal but the one under `exceptKey`; answers how many went. */
  deleteByPrincipal(principalId: string, exceptKey?: string): Promise<number>;
  /**
   * Removes every record delegated by one service (its `actingFor` is `serviceName`), whatever
   * principal it acts for; answers how many went. A delegated session stands on its service's
   * credentials, so it ends with them.
   */
  deleteActingFor(serviceName: string): Promise<number>;
  /** Number of live records. */
  count(): Promise<number>;
  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

export const SESSION_STORE = token<SessionStore>('SessionStore');
