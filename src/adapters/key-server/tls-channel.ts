import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { KeygateError, KeyServerFailedError, KeyServerUnavailableError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { REPLY_BODY_LIMIT_BYTES } from '../../keyserver/protocol/keyserver-protocol.js';
import { unavailable, type TlsDialer } from './tls-dialer.js';
import { interpretReply } from './tls-reply.js';

/**
 * One gateway request's connection to the daemon (seed 000 §1): opened validated, used for that
 * request's calls (HTTP/1.1 on the same TLS connection), closed after it. Should the daemon drop the
 * idle connection between two calls, the next call dials again, validated the same way.
 *
 * The timeout is the request's budget at the key server (issue 15 §2): the handshake and every call
 * of the channel draw on it, so a daemon that stalls each step cannot stretch a login to a multiple of
 * it. Time between calls (the gateway's own work) is not the key server's and is not counted.
 */
export class TlsChannel {
  readonly #agent: ChannelAgent;
  readonly #url: URL;
  readonly #timeoutMs: number;
  /** Time spent at the key server so far (the handshake, finished calls), and the start of the call in flight. */
  #spentMs: number;
  #callStarted: number | undefined;

  private constructor(socket: TLSSocket, dialer: TlsDialer, url: URL, timeoutMs: number, spentMs: number) {
    this.#agent = new ChannelAgent(socket, dialer, () => Math.max(1, this.#leftMs()));
    this.#url = url;
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
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request({ host: this.#url.hostname, port: this.#url.port, method, path, headers: headersFor(payload, token), agent: this.#agent });
      const deadline = setTimeout(() => {
        settle(() => reject(this.#outOfTime()));
        req.destroy();
      }, left);
      req.on('error', (error) => settle(() => reject(unavailable(error))));
      req.once('response', (res) => {
        readReply(res)
          .then((text) => interpretReply(res.statusCode ?? 0, text))
          .then(
            (value) => settle(() => resolve(value)),
            (error: unknown) => settle(() => reject(error instanceof KeygateError ? error : unavailable(error))),
          );
      });
      req.end(payload);
    });
  }

  #outOfTime(): KeyServerUnavailableError {
    return new KeyServerUnavailableError(`key server did not answer within ${this.#timeoutMs} ms`);
  }

  /** Ends the TLS connection. Idempotent. */
  close(): void {
    this.#agent.destroy();
  }
}

/** Hands the validated socket to the first request; any later connection is dialed and validated. */
class ChannelAgent extends Agent {
  readonly #dialer: TlsDialer;
  readonly #left: () => number;
  #spare: TLSSocket | undefined;

  constructor(socket: TLSSocket, dialer: TlsDialer, left: () => number) {
    super({ keepAlive: true, maxSockets: 1 });
    this.#spare = socket;
    this.#dialer = dialer;
    this.#left = left;
  }

  override createConnection(_options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | undefined {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare !== undefined && !spare.destroyed) return spare;
    spare?.destroy();
    this.#dialer.open(Math.max(1, this.#left())).then(
      (socket) => callback?.(null, socket),
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }

  override destroy(): void {
    this.#spare?.destroy();
    this.#spare = undefined;
    super.destroy();
  }
}

function headersFor(payload: Buffer | undefined, token: Secret | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { accept: 'application/json' };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  if (token !== undefined) headers.authorization = `Bearer ${token.reveal()}`;
  return headers;
}

async function readReply(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > REPLY_BODY_LIMIT_BYTES) {
      res.destroy();
      throw new KeyServerFailedError('key server reply is too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
