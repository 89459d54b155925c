import type { Context, Next } from 'koa';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import { authenticate } from '../authenticate.js';
import { bearerCredential } from '../credential.js';
import type { GatewayState } from '../state.js';

export type ApiContext = Context & { state: GatewayState };

/**
 * The /api authentication step: the bearer credential names a live session (seed 001 §5.1). The
 * sender-constraint proof of a bound session is checked here too, before any authorization.
 */
export function requireBearer(services: GatewayServices) {
  return async function authenticateBearer(ctx: ApiContext, next: Next) {
    await authenticate(ctx, services, bearerCredential(ctx));
    await next();
  };
}

export function callerOf(ctx: ApiContext): Caller {
  return ctx.state.caller!;
}
