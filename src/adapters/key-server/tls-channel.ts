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
 */
export class TlsChannel {
  readonly #agent: ChannelAgent;
  readonly #url: URL;
  readonly #timeoutMs: number;

  private constructor(agent: ChannelAgent, url: URL, timeoutMs: number) {
    this.#agent = agent;
    this.#url = url;
    this.#timeoutMs = timeoutMs;
  }

  static async open(dialer: TlsDialer, url: URL, timeoutMs: number): Promise<TlsChannel> {
    const socket = await dialer.open();
    return new TlsChannel(new ChannelAgent(socket, dialer), url, timeoutMs);
  }

  /** One call: JSON in, JSON out. Throws the daemon's error by code, or UNAVAILABLE / FAILED. */
  call(method: 'GET' | 'POST', path: string, body?: unknown, token?: Secret): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        outcome();
      };
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request({ host: this.#url.hostname, port: this.#url.port, method, path, headers: headersFor(payload, token), agent: this.#agent });
      const deadline = setTimeout(() => {
        settle(() => reject(new KeyServerUnavailableError(`key server did not answer within ${this.#timeoutMs} ms`)));
        req.destroy();
      }, this.#timeoutMs);
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

  /** Ends the TLS connection. Idempotent. */
  close(): void {
    this.#agent.destroy();
  }
}

/** Hands the validated socket to the first request; any later connection is dialed and validated. */
class ChannelAgent extends Agent {
  readonly #dialer: TlsDialer;
  #spare: TLSSocket | undefined;

  constructor(socket: TLSSocket, dialer: TlsDialer) {
    super({ keepAlive: true, maxSockets: 1 });
    this.#spare = socket;
    this.#dialer = dialer;
  }

  override createConnection(_options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | undefined {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare !== undefined && !spare.destroyed) return spare;
    spare?.destroy();
    this.#dialer.open().then(
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
