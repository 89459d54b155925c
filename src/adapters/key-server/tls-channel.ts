import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent, request, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { KeygateError, KeyServerFailedError, KeyServerUnavailableError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { ALPN, FRAME_END, REPLY_BODY_LIMIT_BYTES, frameReply } from '../../keyserver/protocol/keyserver-protocol.js';
import { unavailable, type TlsDialer } from './tls-dialer.js';
import { interpretReply, parseJson } from './tls-reply.js';

/** One call's answer: its status and its body as JSON (undefined when the body is not JSON). */
interface Answer {
  readonly status: number;
  readonly json: unknown;
}

/** How calls travel on the channel's connection: HTTP/1.1 or the framed transport, as the handshake chose. */
interface Exchange {
  send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined, leftMs: () => number): Promise<Answer>;
  /** Abandons the call in flight (its time is up): its connection is closed. */
  abort(): void;
  close(): void;
}

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
    this.#exchange = socket.alpnProtocol === ALPN.framed ? new FramedExchange(socket, dialer) : new HttpExchange(socket, dialer, url);
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
        .send(method, path, body, token, () => Math.max(1, this.#leftMs()))
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

/** Calls as HTTP/1.1 requests, through an agent that holds the channel's connection. */
class HttpExchange implements Exchange {
  readonly #agent: ChannelAgent;
  readonly #url: URL;
  #request: ClientRequest | undefined;

  constructor(socket: TLSSocket, dialer: TlsDialer, url: URL) {
    this.#agent = new ChannelAgent(socket, dialer);
    this.#url = url;
  }

  send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined, leftMs: () => number): Promise<Answer> {
    this.#agent.leftMs = leftMs;
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request({ host: this.#url.hostname, port: this.#url.port, method, path, headers: headersFor(payload, token), agent: this.#agent });
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

/**
 * Calls as frames: one line of JSON out (`{ method, path, authorization?, body? }`), one line back
 * (`{ status, body }`), one call at a time (docs/keyserver-protocol.md "Framed transport").
 */
class FramedExchange implements Exchange {
  readonly #dialer: TlsDialer;
  #socket: TLSSocket | undefined;
  #closed = false;

  constructor(socket: TLSSocket, dialer: TlsDialer) {
    this.#socket = socket;
    this.#dialer = dialer;
  }

  async send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined, leftMs: () => number): Promise<Answer> {
    const frame = `${JSON.stringify({ method, path, ...(token === undefined ? {} : { authorization: `Bearer ${token.reveal()}` }), body })}${FRAME_END}`;
    const reply = await exchangeFrame(await this.#connection(leftMs), frame);
    let json: unknown;
    try {
      json = JSON.parse(reply);
    } catch {
      throw new KeyServerFailedError('key server answer frame is not JSON');
    }
    const answer = frameReply.safeParse(json);
    if (!answer.success) throw new KeyServerFailedError('key server answer frame does not follow the protocol');
    return { status: answer.data.status, json: answer.data.body };
  }

  /** The open connection, or a new one dialed and validated when the daemon closed it. */
  async #connection(leftMs: () => number): Promise<TLSSocket> {
    const socket = this.#socket;
    if (socket !== undefined && !socket.destroyed && socket.writable) return socket;
    socket?.destroy();
    this.#socket = undefined;
    const fresh = await this.#dialer.open(leftMs());
    if (this.#closed) {
      fresh.destroy();
      throw unavailable(new Error('the connection was closed'));
    }
    if (fresh.alpnProtocol !== ALPN.framed) {
      fresh.destroy();
      throw unavailable(new Error('the key server no longer offers the framed transport'));
    }
    this.#socket = fresh;
    return fresh;
  }

  abort(): void {
    this.#socket?.destroy();
  }

  close(): void {
    this.#closed = true;
    this.abort();
    this.#socket = undefined;
  }
}

/** Writes one frame and reads the answer's line (at most REPLY_BODY_LIMIT_BYTES). */
function exchangeFrame(socket: TLSSocket, frame: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      socket.removeListener('error', onError);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      const end = chunk.indexOf(10);
      size += end === -1 ? chunk.length : end;
      if (size > REPLY_BODY_LIMIT_BYTES) {
        socket.destroy();
        return finish(() => reject(new KeyServerFailedError('key server reply is too large')));
      }
      if (end === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, end));
      finish(() => resolve(Buffer.concat(chunks).toString('utf8')));
    };
    const onClose = () => finish(() => reject(unavailable(new Error('the key server closed the connection before it answered'))));
    const onError = (error: Error) => finish(() => reject(unavailable(error)));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.write(frame);
  });
}

/** Hands the validated socket to the first request; any later connection is dialed and validated. */
class ChannelAgent extends Agent {
  readonly #dialer: TlsDialer;
  /** What is left of the channel's budget for a connection dialed again (ms). */
  leftMs: () => number = () => 1;
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
    this.#dialer.open(this.leftMs()).then(
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
