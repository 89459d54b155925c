import { KeyServerFailedError, isKeygateError } from '../../domain/errors/index.js';
import type { RandomSource } from '../../domain/random-source.js';
import type { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import type { KeyServer, KeyServerConnection, KeyServerLogin } from '../../ports/key-server.port.js';
import { srpLogin } from './srp-login.js';

/**
 * The key-server engine in the gateway's own process: the embedded default. Calls go straight to the
 * engine, which decides authorization exactly as the daemon does.
 */
export class EmbeddedKeyServer implements KeyServer {
  readonly #engine: KeyServerEngine;
  readonly #fingerprint: string;
  readonly #random: RandomSource;

  constructor(engine: KeyServerEngine, fingerprint: string, random: RandomSource) {
    this.#engine = engine;
    this.#fingerprint = fingerprint;
    this.#random = random;
  }

  login(user: string, password: Secret): Promise<KeyServerLogin> {
    const engine = this.#engine;
    return srpLogin(
      {
        begin: async (name, A) => guard(() => engine.beginLogin(name, A)),
        finish: async (handle, M1) => guard(() => engine.finishLogin(handle, M1)),
      },
      user,
      password,
      this.#random,
    );
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    return new EmbeddedConnection(this.#engine, token);
  }

  fingerprint(): string {
    return this.#fingerprint;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.#engine.close();
  }
}

class EmbeddedConnection implements KeyServerConnection {
  readonly #engine: KeyServerEngine;
  readonly #token: Secret;
  #closed = false;

  constructor(engine: KeyServerEngine, token: Secret) {
    this.#engine = engine;
    this.#token = token;
  }

  whoami() {
    return this.#run((token) => this.#engine.whoami(token));
  }

  generateKey(options: Parameters<KeyServerConnection['generateKey']>[0]) {
    return this.#run((token) => this.#engine.generateKey(token, options));
  }

  exportKey(ttag: string) {
    return this.#run((token) => this.#engine.exportKey(token, ttag));
  }

  readAcl(ttag: string) {
    return this.#run((token) => this.#engine.readAcl(token, ttag));
  }

  grant(ttag: string, principal: string, rights: Parameters<KeyServerConnection['grant']>[2]) {
    return this.#run((token) => this.#engine.grant(token, ttag, principal, rights));
  }

  revoke(ttag: string, principal: string) {
    return this.#run((token) => this.#engine.revoke(token, ttag, principal));
  }

  signOut() {
    return this.#run((token) => this.#engine.revokeToken(token));
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  async #run<T>(operation: (token: string) => T): Promise<T> {
    if (this.#closed) throw new KeyServerFailedError('connection is closed');
    return guard(() => operation(this.#token.reveal()));
  }
}

/** Engine errors carry contract codes already; anything else is a key-server failure. */
function guard<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (isKeygateError(error)) throw error;
    throw new KeyServerFailedError('key server operation failed', error);
  }
}
