import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { type ConnectionOptions, connect, createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import { isKeygateError, KeyServerUnavailableError } from '../../domain/errors/index.js';
import { ALPN } from '../../keyserver/protocol/keyserver-protocol.js';
import { clientRefusedCause, isClientCertificateRefusal, PinMismatchError } from './daemon-check.js';
import { withoutPeerCertificate } from './tls-session.js';

/** How the gateway trusts the daemon: exactly one of a CA (PEM) or a pinned certificate fingerprint. */
export type TlsTrust =
  | { readonly ca: string; readonly fingerprint?: undefined }
  | { readonly ca?: undefined; readonly fingerprint: string };

export interface TlsDialerOptions {
  readonly url: URL;
  readonly trust: TlsTrust;
  readonly timeoutMs: number;
  /** Offer the last TLS 1.3 session ticket so a new connection resumes instead of a full handshake. */
  readonly resumeSessions: boolean;
  /** The client certificate and key (PEM) presented to the daemon (mutual TLS). */
  readonly client?: { readonly cert: string; readonly key: string } | undefined;
}

/**
 * Opens TLS 1.3 connections to one key-server daemon and resolves only once the peer is validated,
 * so nothing (no token) is ever written to a server that has not been checked:
 * - CA trust: Node validates the chain and the host name during the handshake and refuses otherwise;
 * - pinned trust: the SHA-256 of the peer certificate's DER must equal the pin.
 * Session tickets are kept only from validated connections. A resumed TLS 1.3 session proves the peer
 * holds that session's secret, which only the validated server had (RFC 8446 §2.2), so a resumed
 * connection is accepted without the certificate (which a resumption does not carry). So the kept
 * session is kept without it too (`withoutPeerCertificate`): a resumed connection shows no certificate.
 */
export class TlsDialer {
  readonly #options: TlsDialerOptions;
  /**
   * The CA, client certificate and key, parsed once: given as PEM to every `connect`, Node would parse
   * them and build a new OpenSSL context for each connection, that is for each gateway request.
   */
  readonly #context: SecureContext;
  #session: Buffer | undefined;
  #fingerprint: string | undefined;

  constructor(options: TlsDialerOptions) {
    this.#options = options;
    this.#fingerprint = options.trust.fingerprint;
    this.#context = createSecureContext({
      minVersion: 'TLSv1.3',
      ...(options.trust.ca !== undefined ? { ca: options.trust.ca } : {}),
      ...(options.client === undefined ? {} : { cert: options.client.cert, key: options.client.key }),
    });
  }

  /** The fingerprint the dialer is bound to: the pin, or the last one a CA-validated handshake showed. */
  get fingerprint(): string | undefined {
    return this.#fingerprint;
  }

  /** Forgets the resumable session (the next connection makes a full handshake). */
  forgetSession(): void {
    this.#session = undefined;
  }

  /** A validated socket, within `timeoutMs` (the configured timeout by default). */
  open(timeoutMs = this.#options.timeoutMs): Promise<TLSSocket> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.#connectOptions());
      // Small request writes go out at once (an HTTP agent would set this too); Nagle plus delayed
      // ACKs would otherwise add tens of milliseconds to a call.
      socket.setNoDelay(true);
      let verified = false;
      const fail = (error: unknown) => {
        clearTimeout(timer);
        socket.destroy();
        reject(unavailable(error));
      };
      // A hard bound, not an idle one: a peer trickling the handshake cannot stretch it.
      const timer = setTimeout(() => fail(new Error(`no TLS handshake within ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', fail);
      socket.on('session', (session: Buffer) => {
        if (verified && this.#options.resumeSessions) this.#session = withoutPeerCertificate(session);
      });
      socket.once('secureConnect', () => {
        const problem = this.#verify(socket);
        if (problem !== undefined) return fail(problem);
        verified = true;
        clearTimeout(timer);
        socket.removeListener('error', fail);
        // An error while the socket waits for its first request destroys it; the channel then dials
        // again, and a request in flight sees the error itself. Without a listener it would crash.
        // It is kept: a TLS alert the daemon sent after the handshake (a refused client certificate)
        // says why the connection closed (`socketError`).
        socket.on('error', (error) => socketErrors.set(socket, error));
        resolve(socket);
      });
    });
  }

  #connectOptions(): ConnectionOptions {
    const { url, trust } = this.#options;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return {
      host,
      port: Number(url.port || 443),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      minVersion: 'TLSv1.3',
      // The framed transport when the daemon offers it; HTTP/1.1 with one that does not (an older daemon).
      ALPNProtocols: [ALPN.framed, ALPN.http],
      secureContext: this.#context,
      ...(this.#options.resumeSessions && this.#session ? { session: this.#session } : {}),
      ...(trust.ca !== undefined ? { rejectUnauthorized: true } : { rejectUnauthorized: false, checkServerIdentity: () => undefined }),
    };
  }

  /** Answers why the peer is refused, or undefined when it is the server the gateway is bound to. */
  #verify(socket: TLSSocket): Error | undefined {
    if (socket.isSessionReused()) return undefined;
    const raw = socket.getPeerCertificate(true)?.raw;
    if (!raw) return new Error('the key server showed no certificate');
    const fingerprint = createHash('sha256').update(raw).digest('hex');
    const pinned = this.#options.trust.fingerprint;
    if (pinned !== undefined && fingerprint !== pinned) return new PinMismatchError(fingerprint, pinned);
    this.#fingerprint = fingerprint;
    return undefined;
  }
}

const socketErrors = new WeakMap<TLSSocket, Error>();

/** The error that ended a validated socket while no call listened, if one did (a TLS alert, a reset). */
export function socketError(socket: TLSSocket): Error | undefined {
  return socketErrors.get(socket);
}

/**
 * Every way of not reaching a validated daemon is one error: KEY_SERVER_UNAVAILABLE. Its detail may
 * reach a client, so it names the failure (ECONNREFUSED, a certificate error code) but not the
 * daemon's address; the cause, for the logs, has the rest.
 */
export function unavailable(error: unknown): KeyServerUnavailableError {
  if (isKeygateError(error) && error.code === 'KEY_SERVER_UNAVAILABLE') return error as KeyServerUnavailableError;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const what = code ?? (error instanceof Error ? error.message : 'connection failed');
  // A TLS alert refusing the client certificate says what to change: the daemon's trust (mutual TLS).
  if (isClientCertificateRefusal(error))
    return new KeyServerUnavailableError(`key server unavailable: ${clientRefusedCause(undefined)} (${what})`, error);
  return new KeyServerUnavailableError(`key server unavailable: ${what}`, error);
}
