import type { TLSSocket } from 'node:tls';
import { KeyServerFailedError } from '../../domain/errors/index.js';
import type { Secret } from '../../domain/secret/secret.js';
import { ALPN, FRAME_END, frameReply, REPLY_BODY_LIMIT_BYTES } from '../../keyserver/protocol/keyserver-protocol.js';
import { socketError, type TlsDialer, unavailable } from './tls-dialer.js';
import type { Answer, Exchange } from './tls-exchange.js';

/**
 * Calls as frames: one line of JSON out (`{ method, path, authorization?, body? }`), one line back
 * (`{ status, body }`), one call at a time (docs/keyserver-protocol.md "Framed transport"). A frame
 * carries no call id: an answer belongs to the call written before it only while the daemon sends
 * exactly one line per call. A byte beyond that line, or one sent while no call waits, ends the
 * connection (the next call dials a new one), so that it can never be read as another call's answer.
 */
export class FramedExchange implements Exchange {
  readonly #dialer: TlsDialer;
  readonly #leftMs: () => number;
  #socket: TLSSocket | undefined;
  #closed = false;
  /** The call on the wire, or the last one: a frame carries no call id, so calls take turns. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(socket: TLSSocket, dialer: TlsDialer, leftMs: () => number) {
    this.#socket = socket;
    socket.on('data', refuseUnasked);
    this.#dialer = dialer;
    this.#leftMs = leftMs;
  }

  /** Calls made at once on one connection go out one after another, each answered in turn. */
  send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined): Promise<Answer> {
    const call = this.#turn.then(() => this.#send(method, path, body, token));
    this.#turn = call.then(ignore, ignore);
    return call;
  }

  async #send(method: 'GET' | 'POST', path: string, body: unknown, token: Secret | undefined): Promise<Answer> {
    // `authorization` is left out without a token, and `body` without a body (JSON drops undefined).
    const authorization = token === undefined ? undefined : `Bearer ${token.reveal()}`;
    const frame = `${JSON.stringify({ method, path, authorization, body })}${FRAME_END}`;
    const reply = await exchangeFrame(await this.#connection(), frame);
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
  async #connection(): Promise<TLSSocket> {
    const socket = this.#socket;
    if (socket !== undefined && !socket.destroyed && socket.writable) return socket;
    socket?.destroy();
    this.#socket = undefined;
    const fresh = await this.#dialer.open(this.#leftMs());
    if (this.#closed) {
      fresh.destroy();
      throw unavailable(new Error('the connection was closed'));
    }
    if (fresh.alpnProtocol !== ALPN.framed) {
      fresh.destroy();
      throw unavailable(new Error('the key server no longer offers the framed transport'));
    }
    fresh.on('data', refuseUnasked);
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

function ignore(): void {}

/** Bytes from the daemon while no call waits for them: the connection is ended, never read on. */
function refuseUnasked(this: TLSSocket): void {
  this.destroy();
}

/** Connections the daemon answered at least once. */
const answered = new WeakSet<TLSSocket>();

/**
 * A connection closed before its answer. One the daemon never answered was most likely refused: a daemon
 * closes a validated connection at once when it does not trust the gateway's client certificate, and
 * the operator needs to hear that it is about mutual TLS (docs/deployment.md).
 */
function closedUnanswered(socket: TLSSocket): Error {
  if (answered.has(socket)) return new Error('the key server closed the connection before it answered');
  return new Error(
    "the key server closed the connection before it answered its first call (a daemon does so when it does not trust this gateway's client certificate: mutual TLS, the daemon's --client-fingerprint or --client-ca)",
  );
}

/**
 * Writes one frame and reads the answer's line (at most REPLY_BODY_LIMIT_BYTES), which must be the
 * last byte the daemon sent: a second line for the one call ends the connection and fails the call.
 */
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
      if (!socket.destroyed) socket.on('data', refuseUnasked);
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
      if (end !== chunk.length - 1) {
        socket.destroy();
        return finish(() => reject(new KeyServerFailedError('key server sent more than one answer to a call')));
      }
      chunks.push(chunk.subarray(0, end));
      answered.add(socket);
      finish(() => resolve(Buffer.concat(chunks).toString('utf8')));
    };
    const onClose = () => finish(() => reject(unavailable(socketError(socket) ?? closedUnanswered(socket))));
    const onError = (error: Error) => finish(() => reject(unavailable(error)));
    socket.removeListener('data', refuseUnasked);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.write(frame);
  });
}
