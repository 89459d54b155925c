import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { isOperationName, KEY_SERVER_OPERATIONS, type OperationArgs, type OperationName } from '../../wire/keyserver-operations.js';
import { toWire, wipeBytes } from '../../wire/keyserver-values.js';
import type { KeyServerEngine } from '../engine/engine.js';
import { BadRequestError, isKeyServerError, KeyServerError, NotFoundError } from '../model/key-server-errors.js';
import {
  BEARER_TOKEN,
  certificateChallenge,
  certificateLogin,
  loginBegin,
  loginFinish,
  PATHS,
  REQUEST_BODY_LIMIT_BYTES,
  workloadLogin,
} from '../protocol/keyserver-protocol.js';
import { GATEWAY_OPERATIONS, runOperation } from '../protocol/protocol-operations.js';
import { BodyTooLargeError, DAEMON_STATUS, MethodNotAllowedError } from './daemon-errors.js';

/** Where the daemon reports failures that are bugs (with their stack; never in a response). */
export type DaemonLog = (line: string) => void;

/**
 * One request to the daemon, however it arrived (an HTTP/1.1 request or a frame of the framed
 * transport): the method, the path, the `Authorization` value and the body, read on demand.
 */
export interface DaemonCall {
  readonly method: string | undefined;
  readonly path: string;
  readonly authorization: string | undefined;
  /** The body as JSON; undefined when empty. Throws BAD_REQUEST when it cannot be read. */
  body(): Promise<unknown>;
}

/** The daemon's answer to one call: a status, a JSON body, and the error it reports, if any. */
export interface DaemonAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly error?: KeyServerError;
}

/** Answers one call to the daemon: its body, or its error as `{ code, detail }` with its status. */
export type DaemonAnswerer = (call: DaemonCall) => Promise<DaemonAnswer>;

const OPERATION_PREFIX = PATHS.operation('');

/**
 * The daemon's surface (docs/keyserver-protocol.md): health, the two SRP-6a login steps, and the
 * operation table. Every answer is JSON; every failure is `{ code, detail }` with the status from
 * DAEMON_STATUS (413 for a body over the limit).
 */
export function createDaemonAnswerer(engine: KeyServerEngine, log: DaemonLog): DaemonAnswerer {
  return (call) =>
    route(engine, call).then(
      (body): DaemonAnswer => ({ status: 200, body }),
      (thrown: unknown) => failure(thrown, log),
    );
}

/** The HTTP/1.1 transport of the daemon's surface. */
export function createDaemonHandler(answer: DaemonAnswerer): RequestListener {
  return function handleRequest(req, res) {
    const call: DaemonCall = {
      method: req.method,
      path: (req.url ?? '/').split('?')[0]!,
      authorization: req.headers.authorization,
      body: () => readJson(req),
    };
    void answer(call).then((answered) => send(res, answered));
  };
}

async function route(engine: KeyServerEngine, call: DaemonCall): Promise<unknown> {
  const { identity } = engine;
  const { path } = call;
  if (path === PATHS.health) {
    allow(call, 'GET');
    return { ok: true, protocol: 1 };
  }
  if (path === PATHS.loginBegin) {
    allow(call, 'POST');
    const body = parse(loginBegin.request, await call.body(), 'body');
    const begun = await engine.atomically(() => engine.login.begin(body.user, Buffer.from(body.A, 'base64')));
    return { handle: begun.handle, salt: begun.salt.toString('base64'), B: begun.B.toString('base64') };
  }
  if (path === PATHS.loginFinish) {
    allow(call, 'POST');
    const body = parse(loginFinish.request, await call.body(), 'body');
    const finished = await engine.atomically(() => engine.login.finish(body.handle, Buffer.from(body.M1, 'base64')));
    return {
      M2: finished.M2.toString('base64'),
      token: finished.token,
      identity: finished.identity,
      expiresAt: finished.expiresAt ?? null,
    };
  }
  if (path === PATHS.certificateChallenge) {
    allow(call, 'POST');
    const body = parse(certificateChallenge.request, await call.body(), 'body');
    return await engine.atomically(() => identity.certificateChallenge(body.certificate));
  }
  if (path === PATHS.certificateLogin) {
    allow(call, 'POST');
    const body = parse(certificateLogin.request, await call.body(), 'body');
    const minted = await identity.certificateLogin(body.challengeId, Buffer.from(body.signature, 'base64'));
    return { token: minted.token, identity: minted.identity, expiresAt: minted.expiresAt ?? null, jkt: minted.jkt ?? null };
  }
  if (path === PATHS.workloadLogin) {
    allow(call, 'POST');
    const body = parse(workloadLogin.request, await call.body(), 'body');
    const answer = await engine.workload.login(body);
    if ('keySource' in answer) return answer;
    return { ...answer, expiresAt: answer.expiresAt ?? null, jti: answer.jti ?? null, jwksUri: answer.jwksUri ?? null };
  }
  if (path.startsWith(OPERATION_PREFIX)) {
    const name = path.slice(OPERATION_PREFIX.length);
    if (!isOperationName(name)) throw new NotFoundError(`unknown operation: ${name.slice(0, 64)}`);
    allow(call, 'POST');
    // A gateway's own calls take no token: the gateway's client certificate let it reach the daemon.
    const token = GATEWAY_OPERATIONS.has(name) ? '' : bearerToken(call.authorization);
    const args = parse(KEY_SERVER_OPERATIONS[name].args, (await call.body()) ?? {}, 'args');
    return await answerOperation(engine, name, token, args);
  }
  throw new NotFoundError(`no route ${path.slice(0, 128)}`);
}

/**
 * One operation's `{ result }`, its bytes as base64 for the wire. The daemon owns the bytes it
 * decoded from the arguments and those the engine answered: both are zeroed once the answer is encoded.
 */
async function answerOperation<N extends OperationName>(
  engine: KeyServerEngine,
  name: N,
  token: string,
  args: OperationArgs<N>,
): Promise<unknown> {
  try {
    const result = await runOperation(engine, name, token, args);
    try {
      return { result: toWire(result) };
    } finally {
      wipeBytes(result);
    }
  } finally {
    wipeBytes(args);
  }
}

function allow(call: DaemonCall, method: 'GET' | 'POST'): void {
  if (call.method !== method) throw new MethodNotAllowedError(method);
}

function bearerToken(authorization: string | undefined): string {
  const [scheme, token, ...rest] = (authorization ?? '').split(' ');
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

function send(res: ServerResponse, answer: DaemonAnswer): void {
  const payload = JSON.stringify(answer.body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
  };
  // An unread body over the limit is not drained: the connection closes after the answer.
  if (answer.error instanceof BodyTooLargeError) headers.connection = 'close';
  if (answer.error instanceof MethodNotAllowedError) headers.allow = answer.error.allowed;
  res.writeHead(answer.status, headers);
  res.end(payload);
}

/** A failure as the daemon answers it; one that is not the key server's own is logged (a bug) and INTERNAL. */
export function failure(thrown: unknown, log: DaemonLog): DaemonAnswer {
  if (!isKeyServerError(thrown)) {
    log(`keygate keyserver: unexpected failure: ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
  }
  const error = isKeyServerError(thrown) ? thrown : new KeyServerError('INTERNAL', 'internal error');
  const body = { code: error.code, detail: error.detail, ...(error.reason === undefined ? {} : { reason: error.reason }) };
  return { status: error instanceof BodyTooLargeError ? 413 : DAEMON_STATUS[error.code], body, error };
}
