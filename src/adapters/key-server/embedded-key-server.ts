import { Secret } from '../../domain/secret/secret.js';
import type { KeyServerEngine } from '../../keyserver/engine/engine.js';
import type { ScheduleSweep } from '../../keyserver/engine/schedule-sweep.js';
import type {
  KeyServer,
  KeyServerCertificateLogin,
  KeyServerConnection,
  KeyServerDaemon,
  KeyServerLogin,
  KeyServerWorkloadLogin,
  WorkloadKeySource,
  WorkloadSignIn,
} from '../../ports/key-server.port.js';
import { EmbeddedConnection, guard } from './embedded-connection.js';

/** How often expired key-server tokens are swept (the daemon's interval). */
export const TOKEN_SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * The key-server engine in the gateway's own process: the embedded default. Calls go straight to the
 * engine, which decides authorization exactly as the daemon does.
 */
export class EmbeddedKeyServer implements KeyServer {
  readonly #engine: KeyServerEngine;
  readonly #fingerprint: string;
  readonly #now: () => number;
  #lastSweep: number;

  readonly #schedule: ScheduleSweep | undefined;

  /** The caller sweeps expired tokens once before (the engine's start); `schedule`, its rotation sweep, stops on close. */
  constructor(engine: KeyServerEngine, fingerprint: string, now: () => number = Date.now, schedule?: ScheduleSweep) {
    this.#engine = engine;
    this.#schedule = schedule;
    this.#fingerprint = fingerprint;
    this.#now = now;
    this.#lastSweep = now();
  }

  /**
   * Expired tokens are swept as the daemon sweeps them, at most once per interval of
   * the gateway's clock, on the way to issuing a new token: tokens only accumulate through logins.
   */
  async #sweepWhenDue(): Promise<void> {
    const now = this.#now();
    if (now - this.#lastSweep < TOKEN_SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now;
    await guard(() => this.#engine.sweepExpiredTokens());
  }

  /**
   * The engine runs in this process, so the password never leaves the gateway either way: it checks
   * the password against the verifier directly instead of running both halves of SRP-6a here.
   */
  async login(user: string, password: Secret): Promise<KeyServerLogin> {
    await this.#sweepWhenDue();
    const result = await guard(() => this.#engine.atomically(() => this.#engine.login.verifyPassword(user, password.reveal())));
    return { token: new Secret(result.token), identity: result.identity, expiresAt: result.expiresAt };
  }

  async certificateChallenge(certificatePem: string) {
    return guard(() => this.#engine.atomically(() => this.#engine.identity.certificateChallenge(certificatePem)));
  }

  async certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    await this.#sweepWhenDue();
    const minted = await guard(() => this.#engine.identity.certificateLogin(challengeId, signature));
    return { token: new Secret(minted.token), identity: minted.identity, expiresAt: minted.expiresAt, jkt: minted.jkt };
  }

  async workloadLogin(request: WorkloadSignIn): Promise<KeyServerWorkloadLogin | WorkloadKeySource> {
    await this.#sweepWhenDue();
    const answer = await guard(() => this.#engine.workload.login(request));
    return 'keySource' in answer ? answer : { ...answer, token: new Secret(answer.token) };
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    return new EmbeddedConnection(this.#engine, token);
  }

  /** The gateway's own calls run in this process: no token stands for the gateway (an empty one, which no other operation takes). */
  async connectAsGateway(): Promise<KeyServerConnection> {
    return new EmbeddedConnection(this.#engine, new Secret(''));
  }

  fingerprint(): string {
    return this.#fingerprint;
  }

  daemons(): readonly KeyServerDaemon[] {
    return [];
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await this.#schedule?.stop();
    await this.#engine.close();
  }
}
