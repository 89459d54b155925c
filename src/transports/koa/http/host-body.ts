import type { IncomingMessage } from 'node:http';
import { KeygateError } from '../../../domain/errors/index.js';

/** What an embedding host's body parser may leave on the request (Express, body-parser). */
interface HostRequest extends IncomingMessage {
  rawBody?: unknown;
  _body?: unknown;
}

/** The host's body parser consumed the stream and kept no bytes: a setup problem of the host (500). */
export class HostBodyConsumedError extends KeygateError {
  override name = 'HostBodyConsumedError';

  constructor() {
    super('INTERNAL', HOST_BODY_HINT);
  }
}

/** How to embed the gateway behind a body parser without losing the bytes a proof's `bth` covers. */
export const HOST_BODY_HINT =
  'the host application read the request body before keygate: mount keygate before express.json() ' +
  '(or any body parser), or keep the exact bytes: express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })';

/**
 * The body as an embedding host kept it, when its parser already read the stream: `req.rawBody` (a
 * Buffer or a string, as `express.json({ verify })` leaves it). A stream already read with no kept
 * bytes cannot be parsed again, nor its `bth` checked: that is the host's setup to change, said in
 * the detail of a 500 (never a silently empty body). `undefined`: the stream is still to be read.
 */
export function hostKeptBody(req: IncomingMessage): Buffer | undefined {
  const host = req as HostRequest;
  if (Buffer.isBuffer(host.rawBody)) return host.rawBody;
  if (typeof host.rawBody === 'string') return Buffer.from(host.rawBody, 'utf8');
  if (host._body === true || host.readableEnded) throw new HostBodyConsumedError();
  return undefined;
}
