import type { RandomSource } from '../../domain/random-source.js';
import { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import type { KeyServer, KeyServerCertificateLogin, KeyServerConnection, KeyServerLogin } from '../../ports/key-server.port.js';
import { EmbeddedConnection, guard } from './embedded-connection.js';
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
        begin: async (name, A) => guard(() => engine.login.begin(name, A)),
        finish: async (handle, M1) => guard(() => engine.login.finish(handle, M1)),
      },
      user,
      password,
      this.#random,
    );
  }

  async certificateChallenge(certificatePem: string) {
    return guard(() => this.#engine.identity.certificateChallenge(certificatePem));
  }

  async certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    const minted = guard(() => this.#engine.identity.certificateLogin(challengeId, signature));
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, jkt: minted.jkt };
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
