import type { Socket } from 'node:net';
import { BadRequestError } from '../model/key-server-errors.js';
import { FRAME_END, frameRequest, REQUEST_BODY_LIMIT_BYTES } from '../protocol/keyserver-protocol.js';
import { BodyTooLargeError } from './daemon-errors.js';
import { type DaemonAnswer, type DaemonAnswerer, type DaemonCall, type DaemonLog, failure } from './daemon-handler.js';

export interface FrameOptions {
  /** A connection that sends no complete request within this time of opening or of its last answer is closed. */
  readonly requestTimeoutMs: number;
}

/**
 * The framed transport (docs/keyserver-protocol.md "Framed transport"): on a connection that chose it
 * by ALPN, each request is one line of JSON (`{ method, path, authorization?, body? }`) and each answer
 * one line (`{ status, body }`), in order. A line over the request limit is answered 413 and the
 * connection closed, as HTTP/1.1 does with a body over the limit; a line that is not a request is
 * BAD_REQUEST and the connection stays usable.
 */
export function serveFrames(socket: Socket, answer: DaemonAnswerer, log: DaemonLog, options: FrameOptions): void {
  const partial: Buffer[] = [];
  let partialBytes = 0;
  const lines: Buffer[] = [];
  let busy = false;
  let tooLarge = false;
  let deadline = setTimeout(() => socket.destroy(), options.requestTimeoutMs);

  const frame = (answered: DaemonAnswer) => `${JSON.stringify({ status: answered.status, body: answered.body })}${FRAME_END}`;

  const next = () => {
    const line = lines.shift();
    if (line === undefined) {
      busy = false;
      if (!tooLarge) return void socket.resume();
      // The lines before it are answered; then the refusal, and the end of the connection.
      return void socket.end(frame(failure(new BodyTooLargeError(REQUEST_BODY_LIMIT_BYTES), log)));
    }
    busy = true;
    clearTimeout(deadline);
    const call = callOf(line);
    const answering = call instanceof BadRequestError ? Promise.resolve(failure(call, log)) : answer(call);
    void answering.then((answered) => {
      if (socket.destroyed) return;
      socket.write(frame(answered));
      deadline = setTimeout(() => socket.destroy(), options.requestTimeoutMs);
      next();
    });
  };

  const read = (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1 && !tooLarge; end = chunk.indexOf(10, start)) {
      partialBytes += end - start;
      if (partialBytes > REQUEST_BODY_LIMIT_BYTES) tooLarge = true;
      else {
        partial.push(chunk.subarray(start, end));
        lines.push(partial.length === 1 ? partial[0]! : Buffer.concat(partial));
      }
      partial.length = 0;
      partialBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length && !tooLarge) {
      partial.push(chunk.subarray(start));
      partialBytes += chunk.length - start;
      tooLarge = partialBytes > REQUEST_BODY_LIMIT_BYTES;
    }
    if (tooLarge) {
      // Nothing after this line can be read in order: nothing more is read.
      partial.length = 0;
      socket.removeListener('data', read);
    }
    if ((lines.length > 0 || tooLarge) && !busy) {
      // One request at a time: what the client sends before its answer waits in the socket.
      socket.pause();
      next();
    }
  };
  socket.on('data', read);
  socket.on('close', () => clearTimeout(deadline));
  socket.on('error', () => socket.destroy());
}

/** A request line as a call, or why it is not one. */
function callOf(line: Buffer): DaemonCall | BadRequestError {
  let json: unknown;
  try {
    json = JSON.parse(line.toString('utf8'));
  } catch (error) {
    return new BadRequestError('a request frame is not JSON', error);
  }
  const parsed = frameRequest.safeParse(json);
  if (!parsed.success) return new BadRequestError('a request frame does not follow the protocol');
  const { method, path, authorization, body } = parsed.data;
  return { method, path, authorization, body: () => Promise.resolve(body) };
}
