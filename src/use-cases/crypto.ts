import { KeyServerFailedError } from '../domain/errors/index.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Resolved } from '../wire/alias.js';
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
import type { EncryptionContext } from '../wire/encryption-context.js';
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

  encrypt(caller: Caller, ttag: string, request: EncryptRequest): Promise<EncryptResult & Resolved> {
    return withConnection(this.#keyServer, caller, (connection) =>
      connection.call('encrypt', { ttag, request: { plaintext: request.plaintext, aad: request.aad, context: request.context } }),
    );
  }

  decrypt(caller: Caller, ttag: string, request: DecryptRequest): Promise<DecryptResult & Resolved> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('decrypt', { ttag, request: decryptArgs(request) }));
  }

  mac(caller: Caller, ttag: string, data: Uint8Array): Promise<MacResult & Resolved> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('mac', { ttag, data }));
  }

  verifyMac(caller: Caller, ttag: string, request: VerifyMacRequest): Promise<{ valid: boolean } & Resolved> {
    return withConnection(this.#keyServer, caller, (connection) =>
      connection.call('verifyMac', { ttag, request: { data: request.data, mac: request.mac, version: request.version } }),
    );
  }

  /** Re-encrypts under the newest version inside the key server; the plaintext never reaches the gateway. */
  rewrap(caller: Caller, ttag: string, request: DecryptRequest): Promise<EncryptResult & Resolved> {
    return withConnection(this.#keyServer, caller, (connection) => connection.call('rewrap', { ttag, request: decryptArgs(request) }));
  }

  /**
   * One operation over many items in one key-server round trip; each item's failure is its outcome.
   * An item's code the key server may not answer is KEY_SERVER_FAILED, as for a single request.
   */
  async batch(caller: Caller, operation: BatchOperation, items: readonly BatchItem[]): Promise<readonly BatchOutcome[]> {
    if (items.length === 0) return [];
    const outcomes = await withConnection(this.#keyServer, caller, (connection) =>
      connection.call('cryptoBatch', { operation, items: items.map(batchArgs) }),
    );
    if (outcomes.length !== items.length)
      throw new KeyServerFailedError(`the key server answered ${outcomes.length} outcomes for ${items.length} items`);
    return outcomes.map((outcome) =>
      outcome.ok || isWireErrorCode(outcome.code)
        ? outcome
        : { ok: false, code: 'KEY_SERVER_FAILED', message: `key server answered ${outcome.code.slice(0, 64)}` },
    );
  }
}

/** The members the protocol knows of a decrypt request (a caller's object may carry more). */
function decryptArgs(request: DecryptRequest) {
  const { ciphertext, iv, authTag, aad, version, context } = request;
  return { ciphertext, iv, authTag, aad, version, context };
}

/** A batch item with the members the protocol knows, whichever operation it is for (each variant has some of them). */
function batchArgs(item: BatchItem) {
  const members: Partial<
    Record<
      'plaintext' | 'aad' | 'ciphertext' | 'iv' | 'authTag' | 'data' | 'mac' | 'message' | 'digest' | 'signature' | 'clientPubKey' | 'blob',
      Uint8Array
    >
  > & { version?: number; alg?: string; kid?: string; context?: EncryptionContext; keyLen?: number } = item;
  const { plaintext, aad, ciphertext, iv, authTag, data, mac, version, alg, message, digest, signature, kid, context } = members;
  const { keyLen, clientPubKey, blob } = members;
  const signing = { alg, message, digest, signature, kid };
  return { ttag: item.ttag, plaintext, aad, ciphertext, iv, authTag, data, mac, version, ...signing, context, keyLen, clientPubKey, blob };
}
