import { KeyServerFailedError } from '../domain/errors/index.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type {
  BatchItem,
  BatchOperation,
  BatchOutcome,
  DecryptRequest,
  DecryptResult,
  EncryptRequest,
  EncryptResult,
  MacResult,
  VerifyMacRequest,
} from '../wire/crypto-messages.js';
import { isWireErrorCode } from '../wire/error-codes.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/**
 * Data cryptography (docs/spec.md §4.5, §4.22): it runs inside the key server, under the raw data key
 * of a version: encrypt and MAC the newest, decrypt and MAC verify the one asked for (1 by default).
 */
export class CryptoUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  encrypt(caller: Caller, ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.encrypt(ttag, request));
  }

  decrypt(caller: Caller, ttag: string, request: DecryptRequest): Promise<DecryptResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.decrypt(ttag, request));
  }

  mac(caller: Caller, ttag: string, data: Uint8Array): Promise<MacResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.mac(ttag, data));
  }

  verifyMac(caller: Caller, ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean }> {
    return withConnection(this.#keyServer, caller, (connection) => connection.verifyMac(ttag, request));
  }

  /** Re-encrypts under the newest version inside the key server; the plaintext never reaches the gateway. */
  rewrap(caller: Caller, ttag: string, request: DecryptRequest): Promise<EncryptResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.rewrap(ttag, request));
  }

  /**
   * One operation over many items in one key-server round trip; each item's failure is its outcome.
   * An item's code the key server may not answer is KEY_SERVER_FAILED, as for a single request.
   */
  async batch(caller: Caller, operation: BatchOperation, items: readonly BatchItem[]): Promise<readonly BatchOutcome[]> {
    if (items.length === 0) return [];
    const outcomes = await withConnection(this.#keyServer, caller, (connection) => connection.cryptoBatch(operation, items));
    if (outcomes.length !== items.length)
      throw new KeyServerFailedError(`the key server answered ${outcomes.length} outcomes for ${items.length} items`);
    return outcomes.map((outcome) =>
      outcome.ok || isWireErrorCode(outcome.code)
        ? outcome
        : { ok: false, code: 'KEY_SERVER_FAILED', message: `key server answered ${outcome.code.slice(0, 64)}` },
    );
  }
}
