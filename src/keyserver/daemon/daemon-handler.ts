import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { BadRequestError, KeyServerError, NotFoundError, isKeyServerError } from '../model/key-server-errors.js';
import type { KeyServerEngine } from '../engine/engine.js';
import {
  BEARER_TOKEN,
  PATHS,
  REQUEST_BODY_LIMIT_BYTES,
  certificateChallenge,
  certificateLogin,
  loginBegin,
  loginFinish,
} from '../protocol/keyserver-protocol.js';
import { OPERATIONS, isOperationName, runOperation } from '../protocol/protocol-operations.js';
import { BodyTooLargeError, DAEMON_STATUS, MethodNotAllowedError } from './daemon-errors.js';

/** Where the daemon reports failures that are bugs (with their stack; never in a response). */
export type DaemonLog = (line: string) => void;

const OPERATION_PREFIX = PATHS.operation('');

/**
 * The daemon's HTTP surface (docs/keyserver-protocol.md): health, the two SRP-6a login steps, and the
 * operation table. Every answer is JSON; every failure is `{ code, detail }` with the status from
 * DAEMON_STATUS.
 */
export function createDaemonHandler(engine: KeyServerEngine, log: DaemonLog): RequestListener {
  return function handleRequest(req, res) {
    route(engine, req).then(
      (body) => send(res, 200, body),
      (error: unknown) => sendError(res, error, log),
    );
  };
}

async function route(engine: KeyServerEngine, req: IncomingMessage): Promise<unknown> {
  const { identity } = engine;
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === PATHS.health) {
    allow(req, 'GET');
    return { ok: true, protocol: 1 };
  }
  if (path === PATHS.loginBegin) {
    allow(req, 'POST');
    const body = parse(loginBegin.request, await readJson(req), 'body');
    const begun = engine.login.begin(body.user, Buffer.from(body.A, 'base64'));
    return { handle: begun.handle, salt: begun.salt.toString('base64'), B: begun.B.toString('base64') };
  }
  if (path === PATHS.loginFinish) {
    allow(req, 'POST');
    const body = parse(loginFinish.request, await readJson(req), 'body');
    const finished = engine.login.finish(body.handle, Buffer.from(body.M1, 'base64'));
    return { M2: finished.M2.toString('base64'), token: finished.token, identity: finished.identity, expiresAt: finished.expiresAt ?? null };
  }
  if (path === PATHS.certificateChallenge) {
    allow(req, 'POST');
    const body = parse(certificateChallenge.request, await readJson(req), 'body');
    return await identity.certificateChallenge(body.certificate);
  }
  if (path === PATHS.certificateLogin) {
    allow(req, 'POST');
    const body = parse(certificateLogin.request, await readJson(req), 'body');
    const minted = await identity.certificateLogin(body.challengeId, Buffer.from(body.signature, 'base64'));
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, jkt: minted.jkt ?? null };
  }
  if (path.startsWith(OPERATION_PREFIX)) {
    const name = path.slice(OPERATION_PREFIX.length);
    if (!isOperationName(name)) throw new NotFoundError(`unknown operation: ${name.slice(0, 64)}`);
    allow(req, 'POST');
    const token = bearerToken(req);
    const args = parse(OPERATIONS[name].args, (await readJson(req)) ?? {}, 'args');
    return { result: await runOperation(engine, name, token, args) };
  }
  throw new NotFoundError(`no route ${path.slice(0, 128)}`);
}

function allow(req: IncomingMessage, method: 'GET' | 'POST'): void {
  if (req.method !== method) throw new MethodNotAllowedError(method);
}

function bearerToken(req: IncomingMessage): string {
  const [scheme, token, ...rest] = (req.headers.authorization ?? '').split(' ');
  if (scheme !== 'Bearer' || token === undefined || rest.length > 0 || !BEARER_TOKEN.test(token)) {
    throw new KeyServerError('SESSION_REQUIRED', 'an Authorization: Bearer token is required');
  }
  return token;
}

/** The body as JSON, at most REQUEST_BODY_LIMIT_BYTES; undefined when empty. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await getRawBody(req, { limit: REQUEST_BODY_LIMIT_BYTES, length: req.headers['content-length'] });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new BodyTooLargeError(REQUEST_BODY_LIMIT_BYTES);
    throw new BadRequestError('request body could not be read', error);
  }
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new BadRequestError('invalid JSON', error);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${what}.${issue.path.join('.')}` : what;
  throw new BadRequestError(`${field}: ${issue?.message ?? 'invalid'}`);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

function sendError(res: ServerResponse, thrown: unknown, log: DaemonLog): void {
  if (!isKeyServerError(thrown)) {
    log(`keygate keyserver: unexpected failure: ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
  }
  const error = isKeyServerError(thrown) ? thrown : new KeyServerError('INTERNAL', 'internal error');
  const tooLarge = error instanceof BodyTooLargeError;
  // An unread body over the limit is not drained: the connection closes after the answer.
  const headers: Record<string, string> = tooLarge ? { connection: 'close' } : {};
  if (error instanceof MethodNotAllowedError) headers.allow = error.allowed;
  const body = { code: error.code, detail: error.detail, ...(error.reason === undefined ? {} : { reason: error.reason }) };
  send(res, tooLarge ? 413 : DAEMON_STATUS[error.code], body, headers);
}
