import type { DecryptRequest, EncryptRequest, EncryptResult, MacResult } from '../wire/crypto-messages.js';
import type { KeyServer } from '../ports/key-server.port.js';
import type { Caller } from './session-context.js';
import { withConnection } from './with-connection.js';

/** Data cryptography (docs/spec.md §4.5): it runs inside the key server, under the raw data key. */
export class CryptoUseCases {
  readonly #keyServer: KeyServer;

  constructor(deps: { keyServer: KeyServer }) {
    this.#keyServer = deps.keyServer;
  }

  encrypt(caller: Caller, ttag: string, request: EncryptRequest): Promise<EncryptResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.encrypt(ttag, request));
  }

  decrypt(caller: Caller, ttag: string, request: DecryptRequest): Promise<{ plaintext: string }> {
    return withConnection(this.#keyServer, caller, (connection) => connection.decrypt(ttag, request));
  }

  mac(caller: Caller, ttag: string, data: string): Promise<MacResult> {
    return withConnection(this.#keyServer, caller, (connection) => connection.mac(ttag, data));
  }

  verifyMac(caller: Caller, ttag: string, data: string, mac: string): Promise<{ valid: boolean }> {
    return withConnection(this.#keyServer, caller, (connection) => connection.verifyMac(ttag, { data, mac }));
  }
}
