import type { Secret } from '../../domain/secret/secret.js';
import type {
  CallArgs,
  CallResult,
  KeyServer,
  KeyServerCertificateLogin,
  KeyServerConnection,
  KeyServerDaemon,
  KeyServerLogin,
  KeyServerObserver,
  KeyServerWorkloadLogin,
  WorkloadKeySource,
  WorkloadSignIn,
} from '../../ports/key-server.port.js';
import type { OperationName } from '../../wire/keyserver-operations.js';
import { observedCall } from '../observed-call.js';

/**
 * The one decorator that watches the key server: every call that reaches it (login, the certificate
 * legs, connect, ping, and each operation a connection it opened runs through `call`) is timed once
 * and its end told to every observer, in order: the metrics (src/adapters/metrics/key-server-metering.ts)
 * and the health check (src/use-cases/health-signal.ts). Arguments and results are never looked at.
 * `fingerprint` and `daemons` do no I/O and `close` is not a call to the key server: none is observed.
 */
export class ObservedKeyServer implements KeyServer {
  readonly #inner: KeyServer;
  readonly #observers: readonly KeyServerObserver[];

  constructor(inner: KeyServer, observers: readonly KeyServerObserver[]) {
    this.#inner = inner;
    this.#observers = observers;
  }

  login(user: string, password: Secret): Promise<KeyServerLogin> {
    return observed(this.#observers, 'login', () => this.#inner.login(user, password));
  }

  certificateChallenge(certificatePem: string): Promise<{ challengeId: string; challenge: string; expiresAt: number }> {
    return observed(this.#observers, 'certificateChallenge', () => this.#inner.certificateChallenge(certificatePem));
  }

  certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    return observed(this.#observers, 'certificateLogin', () => this.#inner.certificateLogin(challengeId, signature));
  }

  workloadLogin(request: WorkloadSignIn): Promise<KeyServerWorkloadLogin | WorkloadKeySource> {
    return observed(this.#observers, 'workloadLogin', () => this.#inner.workloadLogin(request));
  }

  connect(token: Secret): Promise<KeyServerConnection> {
    return observed(this.#observers, 'connect', async () => new ObservedConnection(await this.#inner.connect(token), this.#observers));
  }

  connectAsGateway(): Promise<KeyServerConnection> {
    return observed(
      this.#observers,
      'connectAsGateway',
      async () => new ObservedConnection(await this.#inner.connectAsGateway(), this.#observers),
    );
  }

  fingerprint(): string {
    return this.#inner.fingerprint();
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#inner.daemons();
  }

  ping(): Promise<void> {
    return observed(this.#observers, 'ping', () => this.#inner.ping());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** One observed connection: each operation told by its protocol name, `close` not. */
class ObservedConnection implements KeyServerConnection {
  readonly #inner: KeyServerConnection;
  readonly #observers: readonly KeyServerObserver[];

  constructor(inner: KeyServerConnection, observers: readonly KeyServerObserver[]) {
    this.#inner = inner;
    this.#observers = observers;
  }

  call<N extends OperationName>(name: N, args: CallArgs<N>): Promise<CallResult<N>> {
    return observed(this.#observers, name, () => this.#inner.call(name, args));
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** One call observed under its member's name. */
function observed<T>(observers: readonly KeyServerObserver[], member: string, call: () => Promise<T>): Promise<T> {
  return observedCall(observers, { member }, call);
}
