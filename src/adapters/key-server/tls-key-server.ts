import { X509Certificate } from 'node:crypto';
import type { z } from 'zod';
import type { RandomSource } from '../../crypto/random-source.js';
import { KeyServerUnavailableError } from '../../domain/errors/index.js';
import { Secret } from '../../domain/secret/secret.js';
import {
  certificateChallenge,
  certificateLogin,
  healthReply,
  loginBegin,
  loginFinish,
  PATHS,
  workloadLogin,
} from '../../keyserver/protocol/keyserver-protocol.js';
import type { Clock } from '../../ports/clock.port.js';
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
import { SystemClock } from '../clock/system-clock.js';
import { requestBudget, WaitBudget } from '../request-budget/request-budget.js';
import { type DaemonProblem, daemonProblemCause } from './daemon-check.js';
import { DaemonPool } from './daemon-pool.js';
import { srpLogin } from './srp-login.js';
import { TlsChannel } from './tls-channel.js';
import { parseReply, TlsConnection } from './tls-connection.js';
import { TlsDialer, type TlsTrust } from './tls-dialer.js';

export interface TlsKeyServerOptions {
  /**
   * `https://host[:port]` of the key-server daemon, or of several (a list, or one string of them
   * separated by commas): each request goes to one that answers (`DaemonPool`).
   */
  readonly url: string | readonly string[];
  /** Exactly one of: a CA certificate (PEM) to validate every daemon against ... */
  readonly ca?: string | undefined;
  /**
   * ... or the pinned SHA-256 of each daemon certificate's DER (64 lower-case hex digits), one per URL
   * in the same order (a list, or one string separated by commas).
   */
  readonly fingerprint?: string | readonly string[] | undefined;
  /** Bound on one request's whole wait at the daemons (connecting and every call), in ms. */
  readonly timeoutMs: number;
  /** Resume TLS 1.3 sessions across the per-request connections. */
  readonly resumeSessions: boolean;
  /** The gateway's client certificate and key (PEM) for mutual TLS; the daemon closes a connection without one it trusts. */
  readonly clientCert?: string | undefined;
  readonly clientKey?: string | undefined;
  /** The clock that times a down daemon's back-off (the system clock by default). */
  readonly clock?: Clock | undefined;
}

/** One daemon: where it listens and the dialer that reaches it (its trust and its resumable session). */
interface Daemon {
  readonly url: URL;
  readonly dialer: TlsDialer;
}

/**
 * The gateway's client of one or several key-server daemons over TLS 1.3 (docs/keyserver-protocol.md).
 * Every `connect` opens a fresh validated connection, used for one gateway request and closed after it;
 * session resumption keeps those handshakes cheap. Not reaching a validated daemon, within the
 * timeout, is KEY_SERVER_UNAVAILABLE; a daemon error keeps its code; a reply that does not follow the
 * protocol is KEY_SERVER_FAILED.
 *
 * With several daemons, a connection goes to the first that completes a validated handshake, in the
 * order `DaemonPool` gives; each attempt gets an equal share of what is left of the request's timeout,
 * so a hung daemon leaves time for the next. Only a failed handshake moves on to another daemon:
 * nothing of the request was written yet. Once a channel is open, every call of it (the two SRP legs
 * included, whose state the daemon holds in memory) goes to that daemon alone, and a call whose
 * answer does not come is never sent elsewhere (its outcome is unknown, `TlsChannel`).
 */
export class TlsKeyServer implements KeyServer {
  readonly #pool: DaemonPool<Daemon>;
  readonly #timeoutMs: number;
  readonly #random: RandomSource;
  /** The SHA-256 of the client certificate presented (mutual TLS), named when a daemon refuses it. */
  readonly #clientFingerprint: string | undefined;

  private constructor(options: TlsKeyServerOptions, random: RandomSource) {
    this.#timeoutMs = options.timeoutMs;
    this.#random = random;
    const urls = listOf(options.url);
    const pins = options.fingerprint === undefined ? undefined : listOf(options.fingerprint);
    if (pins !== undefined && pins.length !== urls.length) {
      throw new Error(`the tls key server needs one fingerprint per URL (${pins.length} for ${urls.length})`);
    }
    const client =
      options.clientCert !== undefined && options.clientKey !== undefined
        ? { cert: options.clientCert, key: options.clientKey }
        : undefined;
    this.#clientFingerprint =
      client === undefined ? undefined : new X509Certificate(client.cert).fingerprint256.replace(/:/g, '').toLowerCase();
    const daemons = urls.map((text, i): Daemon => {
      const url = new URL(text);
      const trust = trustOf(options.ca, pins?.[i]);
      return { url, dialer: new TlsDialer({ url, trust, timeoutMs: options.timeoutMs, resumeSessions: options.resumeSessions, client }) };
    });
    this.#pool = new DaemonPool(daemons, options.clock ?? new SystemClock());
  }

  /**
   * Builds the adapter. With CA trust, or when `onProblem` is given, it checks every daemon once
   * (`checkDaemons`), telling `onProblem` why each that failed cannot be used; with CA trust this also
   * learns the fingerprint each showed (`/health` shows them), and it fails, naming every daemon and
   * its cause, when none can be used. With pins, the pins are the fingerprints, and daemons that come
   * later are used then.
   */
  static async start(
    options: TlsKeyServerOptions,
    random: RandomSource,
    onProblem?: (problem: DaemonProblem) => void,
  ): Promise<TlsKeyServer> {
    const keyServer = new TlsKeyServer(options, random);
    if (options.ca === undefined && onProblem === undefined) return keyServer;
    const problems = await keyServer.checkDaemons();
    for (const problem of problems) onProblem?.(problem);
    if (options.ca !== undefined && problems.length === keyServer.#pool.members.length) {
      const each = problems.map((problem) => `${problem.url}: ${problem.cause}`).join('; ');
      throw new KeyServerUnavailableError(`key server unavailable: no daemon can be used (${each})`);
    }
    return keyServer;
  }

  async login(user: string, password: Secret): Promise<KeyServerLogin> {
    const channel = await this.#open();
    try {
      return await srpLogin(
        {
          begin: async (name, A) => {
            const reply = await callWith(channel, PATHS.loginBegin, loginBegin.reply, { user: name, A: A.toString('base64') });
            return { handle: reply.handle, salt: decode(reply.salt), B: decode(reply.B) };
          },
          finish: async (handle, M1) => {
            const reply = await callWith(channel, PATHS.loginFinish, loginFinish.reply, { handle, M1: M1.toString('base64') });
            return { M2: decode(reply.M2), token: reply.token, identity: reply.identity, expiresAt: reply.expiresAt ?? undefined };
          },
        },
        user,
        password,
        this.#random,
      );
    } finally {
      channel.close();
    }
  }

  async certificateChallenge(certificatePem: string) {
    return this.#once((channel) =>
      callWith(channel, PATHS.certificateChallenge, certificateChallenge.reply, { certificate: certificatePem }),
    );
  }

  async certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    const reply = await this.#once((channel) =>
      callWith(channel, PATHS.certificateLogin, certificateLogin.reply, { challengeId, signature: signature.toString('base64') }),
    );
    return {
      token: new Secret(reply.token),
      identity: reply.identity,
      expiresAt: reply.expiresAt ?? undefined,
      jkt: reply.jkt ?? undefined,
    };
  }

  async workloadLogin(request: WorkloadSignIn): Promise<KeyServerWorkloadLogin | WorkloadKeySource> {
    const reply = await this.#once((channel) => callWith(channel, PATHS.workloadLogin, workloadLogin.reply, request));
    if ('keySource' in reply) return reply;
    return {
      ...reply,
      token: new Secret(reply.token),
      expiresAt: reply.expiresAt ?? undefined,
      jti: reply.jti ?? undefined,
      jwksUri: reply.jwksUri ?? undefined,
    };
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    return new TlsConnection(await this.#open(), token);
  }

  /** A connection with no Authorization: the gateway's client certificate is what the daemon checks. */
  async connectAsGateway(): Promise<KeyServerConnection> {
    return new TlsConnection(await this.#open(), undefined);
  }

  /** The fingerprint of the daemon requests go to first (the first that serves), else of the first known. */
  fingerprint(): string {
    const daemons = this.#pool.members;
    const known = [...daemons.filter((daemon) => this.#pool.isUp(daemon)), ...daemons].find(
      (daemon) => daemon.dialer.fingerprint !== undefined,
    );
    if (known === undefined) throw new KeyServerUnavailableError('the key server fingerprint is not known yet');
    return known.dialer.fingerprint!;
  }

  daemons(): readonly KeyServerDaemon[] {
    return this.#pool.members.map((daemon) => ({
      url: daemon.url.origin,
      fingerprint: daemon.dialer.fingerprint,
      ok: this.#pool.isUp(daemon),
    }));
  }

  /**
   * Checks each daemon that serves or whose back-off has passed (all of them when none does), at
   * once; resolves when at least one answers.
   */
  async ping(): Promise<void> {
    const outcomes = await Promise.allSettled(this.#pool.probeTargets().map((daemon) => this.#ping(daemon)));
    if (outcomes.some((outcome) => outcome.status === 'fulfilled')) return;
    throw (outcomes[0] as PromiseRejectedResult).reason;
  }

  /**
   * Checks every daemon once, at once (a validated handshake, then a health call), marking each up or
   * down, and answers why each that failed cannot be used: unreachable, pin mismatch, certificate not
   * trusted, or client certificate refused (mutual TLS). The gateway says so at boot, before it listens.
   */
  async checkDaemons(): Promise<readonly DaemonProblem[]> {
    const problems = await Promise.all(this.#pool.members.map((daemon) => this.#check(daemon)));
    return problems.filter((problem) => problem !== undefined);
  }

  async close(): Promise<void> {
    for (const daemon of this.#pool.members) daemon.dialer.forgetSession();
  }

  /** One daemon's health call on a connection of its own; its outcome marks the daemon up or down. */
  async #ping(daemon: Daemon): Promise<void> {
    try {
      const channel = await TlsChannel.open(daemon.dialer, daemon.url, new WaitBudget(this.#timeoutMs));
      try {
        await callWith(channel, PATHS.health, healthReply);
      } finally {
        channel.close();
      }
    } catch (error) {
      this.#pool.failed(daemon);
      throw error;
    }
    this.#pool.succeeded(daemon);
  }

  async #check(daemon: Daemon): Promise<DaemonProblem | undefined> {
    let phase: 'handshake' | 'call' = 'handshake';
    try {
      const channel = await TlsChannel.open(daemon.dialer, daemon.url, new WaitBudget(this.#timeoutMs));
      phase = 'call';
      try {
        await callWith(channel, PATHS.health, healthReply);
      } finally {
        channel.close();
      }
    } catch (error) {
      this.#pool.failed(daemon);
      return { url: daemon.url.origin, cause: daemonProblemCause(error, phase, this.#clientFingerprint) };
    }
    this.#pool.succeeded(daemon);
    return undefined;
  }

  /** One call on a fresh checked connection, closed after it. */
  async #once<T>(call: (channel: TlsChannel) => Promise<T>): Promise<T> {
    const channel = await this.#open();
    try {
      return await call(channel);
    } finally {
      channel.close();
    }
  }

  /**
   * A channel to the first daemon, in the pool's order, that completes a validated handshake. A failed
   * handshake marks its daemon down and moves on: no byte of the request was written to it.
   */
  async #open(): Promise<TlsChannel> {
    const budget = requestBudget('keyServer', this.#timeoutMs);
    const order = this.#pool.route();
    let failure: unknown;
    for (const [i, daemon] of order.entries()) {
      const left = budget.leftMs();
      if (left <= 0) break;
      try {
        const channel = await TlsChannel.open(daemon.dialer, daemon.url, budget, Math.ceil(left / (order.length - i)));
        this.#pool.succeeded(daemon);
        return channel;
      } catch (error) {
        this.#pool.failed(daemon);
        failure = error;
      }
    }
    throw failure ?? TlsChannel.spent(budget);
  }
}

async function callWith<S extends z.ZodType>(channel: TlsChannel, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
  const reply = await channel.call(body === undefined ? 'GET' : 'POST', path, body);
  return parseReply(schema, reply, path);
}

function trustOf(ca: string | undefined, fingerprint: string | undefined): TlsTrust {
  if (ca !== undefined && fingerprint === undefined) return { ca };
  if (ca === undefined && fingerprint !== undefined) return { fingerprint };
  throw new Error('the tls key server needs exactly one of ca or fingerprint');
}

/** A list as given, or the entries of one comma-separated string. */
function listOf(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? value.split(',').map((entry) => entry.trim()) : value;
}

/** Binary values travel as standard base64 (docs/keyserver-protocol.md). */
function decode(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}
