import type { Duplex } from 'node:stream';

/** Node's limit on the request head (`--max-http-header-size`, 16 KiB by default). */
const HEADER_LIMIT = 16 * 1024;

interface ParserError extends Error {
  readonly code?: string;
  readonly rawPacket?: Buffer;
}

/**
 * Answers a request Node's parser refused before the app saw it (the server's `clientError`): the
 * status Node would give (431 headers too large, RFC 6585 §5; 408 timed out; else 400) with the JSON
 * error body of the surface the request line names (`/api`: `{ code, detail }`, root: `{ error }`),
 * never Node's bare answer without a body.
 */
export function answerClientError(error: ParserError, socket: Duplex): void {
  // As Node does: a response already under way on this connection cannot be followed by another.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = describe(error);
  const path = requestPath(error.rawPacket);
  const body = JSON.stringify(path !== undefined && /^\/api(?:[/?]|$)/.test(path) ? { code: 'BAD_REQUEST', detail } : { error: detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    // As Node does: once the answer is written the connection is closed, whatever the client still sends
    // (a slow client cut off by the headers or request timeout must not keep its socket).
    () => socket.destroy(),
  );
}

function describe(error: ParserError): [number, string, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return [431, 'Request Header Fields Too Large', `request headers larger than ${HEADER_LIMIT} bytes`];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout', 'request not received in time'];
  return [400, 'Bad Request', 'malformed HTTP request'];
}

/** The path of the request line, when the bytes received so far hold one. */
function requestPath(raw: Buffer | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(raw.subarray(0, 8192).toString('latin1'))?.[1];
}
