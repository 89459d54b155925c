import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { BadRequestError } from '../../../domain/errors/index.js';
import type { GatewayState } from '../state.js';
import { hostKeptBody } from './host-body.js';

/** docs/spec.md §7: a request body is at most 1 MB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/**
 * Reads the request body, never buffering more than the limit (a declared length over it is refused
 * before reading; a stream that runs over is cut off). Keeps the exact bytes in `ctx.state.rawBody`.
 */
export async function readRawBody(ctx: Context & { state: GatewayState }, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  if (ctx.state.rawBody) return ctx.state.rawBody;
  const kept = hostKeptBody(ctx.req);
  if (kept !== undefined) {
    if (kept.length > limit) throw new BadRequestError(`request body larger than ${limit} bytes`);
    ctx.state.rawBody = kept.length === 0 ? EMPTY : kept;
    return ctx.state.rawBody;
  }
  const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
  if (encoding !== 'identity') throw new BadRequestError(`unsupported Content-Encoding: ${encoding}`);
  // RFC 9112 §6.3: a request without Content-Length and Transfer-Encoding has no body; nothing to wait for.
  const headers = ctx.req.headers;
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    ctx.state.rawBody = EMPTY;
    return EMPTY;
  }
  let body: Buffer;
  try {
    body = await getRawBody(ctx.req, { limit, length: ctx.get('Content-Length') || undefined });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') {
      // The rest of the body is not read: close the connection after the answer instead of draining it.
      ctx.set('Connection', 'close');
      throw new BadRequestError(`request body larger than ${limit} bytes`, error);
    }
    throw new BadRequestError('request body could not be read', error);
  }
  ctx.state.rawBody = body.length === 0 ? EMPTY : body;
  return ctx.state.rawBody;
}

/**
 * Reads and parses a JSON body. `undefined` when the body is empty; a body whose media type is not
 * JSON, or which does not parse, is a bad request.
 */
export async function readJsonBody(ctx: Context & { state: GatewayState }): Promise<unknown> {
  const raw = await readRawBody(ctx);
  if (raw.length === 0) return undefined;
  const type = ctx.get('Content-Type');
  if (type !== '' && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new BadRequestError('Content-Type must be application/json');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new BadRequestError('invalid JSON', new Error(`invalid JSON ${wherePosition(error)}`));
  }
}

/**
 * V8's message for a bad JSON text may quote part of it (a password was seen in a log line): only
 * the position it names is kept, never the text around it.
 */
function wherePosition(error: unknown): string {
  const position = /\bposition (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  return position === undefined ? '(unexpected token)' : `at position ${position}`;
}
