import type { TLSSocket } from 'node:tls';
import { KeygateError, KeyServerUnavailableError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { ALPN } from '../../keyserver/protocol/keyserver-protocol.js';
import type { Exchange } from './tls-exchange.js';
import { unavailable, type TlsDialer } from './tls-dialer.js';
import { FramedExchange } from './tls-framed-exchange.js';
import { HttpExchange } from './tls-http-exchange.js';
import { interpretReply } from './tls-reply.js';

/**
 * One gateway request's connection to the daemon (seed 000 §1): opened validated, used for that
 * request's calls, closed after it. The calls travel as the handshake chose by ALPN: the framed
 * transport (one JSON line each way) when the daemon offers it, HTTP/1.1 otherwise. Should the daemon
 * drop the idle connection between two calls, the next call dials again, validated the same way.
 *
 * The timeout is the request's budget at the key server (issue 15 §2): the handshake and every call
 * of the channel draw on it, so a daemon that stalls each step cannot stretch a login to a multiple of
 * it. Time between calls (the gateway's own work) is not the key server's and is not counted.
 */
export class TlsChannel {
  readonly #exchange: Exchange;
  readonly #timeoutMs: number;
  /** Time spent at the key server so far (the handshake, finished calls), and the start of the call in flight. */
  #spentMs: number;
  #callStarted: number | undefined;

  private constructor(socket: TLSSocket, dialer: TlsDialer, url: URL, timeoutMs: number, spentMs: number) {
    const leftMs = () => Math.max(1, this.#leftMs());
    this.#exchange = socket.alpnProtocol === ALPN.framed ? new FramedExchange(socket, dialer, leftMs) : new HttpExchange(socket, dialer, url, leftMs);
    this.#timeoutMs = timeoutMs;
    this.#spentMs = spentMs;
  }

  static async open(dialer: TlsDialer, url: URL, timeoutMs: number): Promise<TlsChannel> {
    const started = performance.now();
    const socket = await dialer.open(timeoutMs);
    return new TlsChannel(socket, dialer, url, timeoutMs, performance.now() - started);
  }

  /** What is left of the budget now (ms). */
  #leftMs(): number {
    const inFlight = this.#callStarted === undefined ? 0 : performance.now() - this.#callStarted;
    return Math.ceil(this.#timeoutMs - this.#spentMs - inFlight);
  }

  /** One call: JSON in, JSON out. Throws the daemon's error by code, or UNAVAILABLE / FAILED. */
  call(method: 'GET' | 'POST', path: string, body?: unknown, token?: Secret): Promise<unknown> {
    const left = this.#leftMs();
    if (left <= 0) return Promise.reject(this.#outOfTime());
    this.#callStarted = performance.now();
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        this.#spentMs += performance.now() - (this.#callStarted ?? performance.now());
        this.#callStarted = undefined;
        outcome();
      };
      const deadline = setTimeout(() => {
        settle(() => reject(this.#outOfTime()));
        this.#exchange.abort();
      }, left);
      this.#exchange
        .send(method, path, body, token)
        .then((answer) => interpretReply(answer.status, answer.json))
        .then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => settle(() => reject(error instanceof KeygateError ? error : unavailable(error))),
        );
    });
  }

  #outOfTime(): KeyServerUnavailableError {
    return new KeyServerUnavailableError(`key server did not answer within ${this.#timeoutMs} ms`);
  }

  /** Ends the TLS connection. Idempotent. */
  close(): void {
    this.#exchange.close();
  }
}
