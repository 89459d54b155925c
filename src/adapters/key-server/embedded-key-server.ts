import type { Right } from '../../domain/acl/acl.js';
import { KeyServerFailedError, isKeygateError } from '../../domain/errors/index.js';
import type { RandomSource } from '../../domain/random-source.js';
import { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import type { EngineParts } from '../../keyserver/engine/engine-parts.js';
import type { IdentityOperations } from '../../keyserver/engine/identity-operations.js';
import type {
  DelegatedToken,
  KeyServer,
  KeyServerCertificateLogin,
  KeyServerConnection,
  KeyServerLogin,
  ScopedToken,
} from '../../ports/key-server.port.js';
import { srpLogin } from './srp-login.js';


/**
 * The key-server engine in the gateway's own process: the embedded default. Calls go straight to the
 * engine, which decides authorization exactly as the daemon does.
 */
export class EmbeddedKeyServer implements KeyServer {
  readonly #parts: EngineParts;
  readonly #fingerprint: string;
  readonly #random: RandomSource;

  constructor(parts: EngineParts, fingerprint: string, random: RandomSource) {
    this.#parts = parts;
    this.#fingerprint = fingerprint;
    this.#random = random;
  }

  login(user: string, password: Secret): Promise<KeyServerLogin> {
    const { engine } = this.#parts;
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

  async certificateChallenge(certificatePem: string) {
    return guard(() => this.#parts.identity.certificateChallenge(certificatePem));
  }

  async certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    const minted = guard(() => this.#parts.identity.certificateLogin(challengeId, signature));
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, jkt: minted.jkt };
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    return new EmbeddedConnection(this.#parts, token);
  }

  fingerprint(): string {
    return this.#fingerprint;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.#parts.engine.close();
  }
}

class EmbeddedConnection implements KeyServerConnection {
  readonly #engine: KeyServerEngine;
  readonly #identity: IdentityOperations;
  readonly #token: Secret;
  #closed = false;

  constructor(parts: EngineParts, token: Secret) {
    this.#engine = parts.engine;
    this.#identity = parts.identity;
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

  grant(ttag: string, principal: string, rights: readonly Right[]) {
    return this.#run((token) => this.#engine.grant(token, ttag, principal, rights));
  }

  revoke(ttag: string, principal: string) {
    return this.#run((token) => this.#engine.revoke(token, ttag, principal));
  }

  mintScoped(request: { objects: readonly string[]; rights?: readonly Right[] | undefined; ttlMs: number }): Promise<ScopedToken> {
    return this.#run((token) => {
      const minted = this.#identity.mintScoped(token, request);
      return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, scope: minted.scope };
    });
  }

  mintDelegated(target: { principal: string } | { certificate: string }): Promise<DelegatedToken> {
    return this.#run((token) => {
      const minted = this.#identity.mintDelegated(token, target);
      return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, actingFor: minted.actingFor };
    });
  }

  addTrustAuthority(pem: string) {
    return this.#run((token) => this.#identity.addAuthority(token, pem));
  }

  enrollCertificate(principal: string, pem: string) {
    return this.#run((token) => this.#identity.enroll(token, principal, pem));
  }

  putSenderKey(principal: string, jwk: unknown) {
    return this.#run((token) => this.#identity.putSenderKey(token, principal, jwk));
  }

  readPolicy() {
    return this.#run((token) => this.#identity.readPolicy(token));
  }

  setPolicy(name: string, value: unknown) {
    return this.#run((token) => this.#identity.setPolicy(token, name, value));
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
