import type { Context } from 'koa';
import { isKeygateError, KeygateError } from '../../../domain/errors/index.js';
import type { Logger } from '../../../ports/logger.port.js';
import type { GatewayState } from '../state.js';

/** An error response as a surface shapes it. */
export interface ErrorResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A surface's one place that turns a domain error into a response. */
export type ErrorMapper = (error: KeygateError, ctx: Context & { state: GatewayState }) => ErrorResponse;

/**
 * Turns a failure into a JSON error response shaped by the surface's mapper. An error that is not a
 * KeygateError is a bug: it is logged with its stack and answered as `INTERNAL` carrying the request
 * id, never the stack or message.
 */
export function respondWithError(
  ctx: Context & { state: GatewayState },
  thrown: unknown,
  mapperFor: (path: string) => ErrorMapper,
  logger: Logger,
): void {
  const error = isKeygateError(thrown) ? thrown : internal(thrown, ctx, logger);
  // A refusal's cause is not logged here: the request's one access-log line carries it.
  if (isKeygateError(thrown) && thrown.cause !== undefined) ctx.state.errorCause = describe(thrown.cause);
  const response = mapperFor(ctx.path)(error, ctx);
  ctx.state.errorCode = error.code;
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  ctx.body = response.body;
}

/**
 * The request step's third part: runs `work` (the routes below, or the audit record's finish) and
 * shapes whatever it throws into the surface's error response (`respondWithError`).
 */
export function shapeFailures(
  mapperFor: (path: string) => ErrorMapper,
  logger: Logger,
): (ctx: Context & { state: GatewayState }, work: () => Promise<unknown>) => Promise<void> {
  return async function shapeFailure(ctx, work) {
    try {
      await work();
    } catch (thrown) {
      respondWithError(ctx, thrown, mapperFor, logger);
    }
  };
}

function internal(thrown: unknown, ctx: Context & { state: GatewayState }, logger: Logger): KeygateError {
  logger.error('unexpected failure', {
    requestId: ctx.state.requestId,
    method: ctx.method,
    path: ctx.path,
    error: thrown instanceof Error ? thrown.stack : String(thrown),
  });
  return new KeygateError('INTERNAL', `internal error (request ${ctx.state.requestId})`);
}

function describe(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
