import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent, type RequestOptions, request } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { REPLY_BODY_LIMIT_BYTES } from '../../keyserver/protocol/keyserver-protocol.js';
import { type TlsDialer, unavailable } from './tls-dialer.js';
import type { Answer, Exchange } from './tls-exchange.js';
import { parseJson } from './tls-reply.js';

/** Calls as HTTP/1.1 requests, through an agent that holds the channel's connection. */
export class HttpExchange implements Exchange {
  readonly #agent: ChannelAgent;
  readonly #url: URL;
  #request: ClientRequest | undefined;

  constructor(socket: TLSSocket, dialer: TlsDialer, url: URL, leftMs: () => number) {
    this.#agent = new ChannelAgent(socket, dialer, leftMs);
    this.#url = url;
  }

  send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request({
        host: this.#url.hostname,
        port: this.#url.port,
        method,
        path,
        headers: headersFor(payload, token),
        agent: this.#agent,
      });
      this.#request = req;
      req.on('error', (error) => reject(unavailable(error)));
      req.once('response', (res) => {
        readReply(res).then((text) => resolve({ status: res.statusCode ?? 0, json: parseJson(text) }), reject);
      });
      req.end(payload);
    });
  }

  abort(): void {
    this.#request?.destroy();
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Hands the validated socket to the first request; any later connection is dialed and validated. */
class ChannelAgent extends Agent {
  readonly #dialer: TlsDialer;
  /** What is left of the channel's budget for a connection dialed again (ms). */
  readonly #leftMs: () => number;
  #spare: TLSSocket | undefined;

  constructor(socket: TLSSocket, dialer: TlsDialer, leftMs: () => number) {
    super({ keepAlive: true, maxSockets: 1 });
    this.#spare = socket;
    this.#dialer = dialer;
    this.#leftMs = leftMs;
  }

  override createConnection(_options: RequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | undefined {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare !== undefined && !spare.destroyed) return spare;
    spare?.destroy();
    this.#dialer.open(this.#leftMs()).then(
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
