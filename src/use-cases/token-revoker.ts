import { isKeygateError } from '../domain/errors/index.js';
import type { Secret } from '../domain/secret/secret.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Logger } from '../ports/logger.port.js';

/** Revocations kept for another try; past it the oldest is dropped (and logged). */
const MAX_PENDING = 10_000;
/** Revocations retried per sign-in or sign-out. */
const RETRIES_PER_TURN = 16;

/**
 * Revokes key-server tokens the gateway no longer holds a session for: a token whose
 * session could not be stored, and the token of a logged-out session. A revocation that fails (key
 * server unreachable) is kept and retried at the next sign-in or sign-out, never forgotten; a token
 * the key server already considers expired needs nothing more.
 */
export class TokenRevoker {
  readonly #keyServer: KeyServer;
  readonly #logger: Logger;
  readonly #pending = new Map<Secret, string>();
  #retrying = false;

  constructor(keyServer: KeyServer, logger: Logger) {
    this.#keyServer = keyServer;
    this.#logger = logger;
  }

  /** Revokes now; on failure keeps the token for a retry. `ref` names the session in logs. */
  async revoke(token: Secret, ref: string): Promise<void> {
    if (await this.#tryRevoke(token)) return;
    this.#logger.warn('token revocation failed; will retry', { session: ref });
    this.#pending.set(token, ref);
    if (this.#pending.size > MAX_PENDING) {
      const [oldest, oldestRef] = this.#pending.entries().next().value as [Secret, string];
      this.#pending.delete(oldest);
      this.#logger.error('token revocation abandoned: too many pending', { session: oldestRef });
    }
  }

  /** Number of revocations waiting for a retry. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Retries a bounded batch of pending revocations (one batch at a time). */
  async retryPending(): Promise<void> {
    if (this.#pending.size === 0 || this.#retrying) return;
    this.#retrying = true;
    try {
      for (const [token, ref] of [...this.#pending].slice(0, RETRIES_PER_TURN)) {
        if (!(await this.#tryRevoke(token))) break;
        this.#pending.delete(token);
        this.#logger.info('pending token revocation done', { session: ref });
      }
    } finally {
      this.#retrying = false;
    }
  }

  async #tryRevoke(token: Secret): Promise<boolean> {
    try {
      const connection = await this.#keyServer.connect(token);
      try {
        await connection.call('revokeToken', {});
      } finally {
        await connection.close();
      }
      return true;
    } catch (error) {
      return isKeygateError(error) && error.code === 'SESSION_EXPIRED';
    }
  }
}
