import type { z } from 'zod';
import { KeyServerUnavailableError } from '../../domain/errors/index.js';
import type { RandomSource } from '../../domain/random-source.js';
import { Secret } from '../../domain/secret/secret.js';
import { PATHS, certificateChallenge, certificateLogin, healthReply, loginBegin, loginFinish } from '../../keyserver/protocol/keyserver-protocol.js';
import type { KeyServer, KeyServerCertificateLogin, KeyServerConnection, KeyServerLogin } from '../../ports/key-server.port.js';
import { srpLogin } from './srp-login.js';
import { TlsChannel } from './tls-channel.js';
import { decode } from './operation-connection.js';
import { TlsConnection, parseReply } from './tls-connection.js';
import { TlsDialer, type TlsTrust } from './tls-dialer.js';
import { requestBudget } from '../request-budget/request-budget.js';

export interface TlsKeyServerOptions {
  /** `https://host[:port]` of the key-server daemon. */
  readonly url: string;
  /** Exactly one of: a CA certificate (PEM) to validate the daemon against ... */
  readonly ca?: string | undefined;
  /** ... or the pinned SHA-256 of the daemon certificate's DER (64 lower-case hex digits). */
  readonly fingerprint?: string | undefined;
  /** Bound on one request's whole wait at the daemon (connecting and every call), in ms. */
  readonly timeoutMs: number;
  /** Resume TLS 1.3 sessions across the per-request connections. */
  readonly resumeSessions: boolean;
  /** The gateway's client certificate and key (PEM) for mutual TLS; the daemon closes a connection without one it trusts. */
  readonly clientCert?: string | undefined;
  readonly clientKey?: string | undefined;
}

/**
 * The gateway's client of a key-server daemon over TLS 1.3 (docs/keyserver-protocol.md). Every
 * `connect` opens a fresh validated connection, used for one gateway request and closed after it;
 * session resumption keeps those handshakes cheap. Not reaching a validated daemon, within the
 * timeout, is KEY_SERVER_UNAVAILABLE; a daemon error keeps its code; a reply that does not follow the
 * protocol is KEY_SERVER_FAILED.
 */
export class TlsKeyServer implements KeyServer {
  readonly #dialer: TlsDialer;
  readonly #url: URL;
  readonly #timeoutMs: number;
  readonly #random: RandomSource;

  private constructor(options: TlsKeyServerOptions, random: RandomSource) {
    this.#url = new URL(options.url);
    this.#timeoutMs = options.timeoutMs;
    this.#random = random;
    this.#dialer = new TlsDialer({
      url: this.#url,
      trust: trustOf(options),
      timeoutMs: options.timeoutMs,
      resumeSessions: options.resumeSessions,
      client: options.clientCert !== undefined && options.clientKey !== undefined ? { cert: options.clientCert, key: options.clientKey } : undefined,
    });
  }

  /**
   * Builds the adapter. With CA trust it reaches the daemon once, to learn the fingerprint of the
   * certificate it validated (`/health` shows it); with a pin, the pin is that fingerprint.
   */
  static async start(options: TlsKeyServerOptions, random: RandomSource): Promise<TlsKeyServer> {
    const keyServer = new TlsKeyServer(options, random);
    if (options.ca !== undefined) await keyServer.ping();
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
    return this.#once((channel) => callWith(channel, PATHS.certificateChallenge, certificateChallenge.reply, { certificate: certificatePem }));
  }

  async certificateLogin(challengeId: string, signature: Buffer): Promise<KeyServerCertificateLogin> {
    const reply = await this.#once((channel) =>
      callWith(channel, PATHS.certificateLogin, certificateLogin.reply, { challengeId, signature: signature.toString('base64') }),
    );
    return { token: new Secret(reply.token), identity: reply.identity, expiresAt: reply.expiresAt ?? undefined, jkt: reply.jkt ?? undefined };
  }

  async connect(token: Secret): Promise<KeyServerConnection> {
    return new TlsConnection(await this.#open(), token);
  }

  fingerprint(): string {
    const fingerprint = this.#dialer.fingerprint;
    if (fingerprint === undefined) throw new KeyServerUnavailableError('the key server fingerprint is not known yet');
    return fingerprint;
  }

  async ping(): Promise<void> {
    const channel = await this.#open();
    try {
      await callWith(channel, PATHS.health, healthReply);
    } finally {
      channel.close();
    }
  }

  async close(): Promise<void> {
    this.#dialer.forgetSession();
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

  #open(): Promise<TlsChannel> {
    return TlsChannel.open(this.#dialer, this.#url, requestBudget('keyServer', this.#timeoutMs));
  }
}

async function callWith<S extends z.ZodType>(channel: TlsChannel, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
  const reply = await channel.call(body === undefined ? 'GET' : 'POST', path, body);
  return parseReply(schema, reply, path);
}

function trustOf(options: TlsKeyServerOptions): TlsTrust {
  if (options.ca !== undefined && options.fingerprint === undefined) return { ca: options.ca };
  if (options.ca === undefined && options.fingerprint !== undefined) return { fingerprint: options.fingerprint };
  throw new Error('the tls key server needs exactly one of ca or fingerprint');
}
