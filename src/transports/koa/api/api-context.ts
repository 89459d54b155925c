import type { Context } from 'koa';
import type { Caller } from '../../../use-cases/session-context.js';
import type { GatewayState } from '../state.js';

export type ApiContext = Context & { state: GatewayState };

/** The caller `authenticate` resolved (routes with `auth: 'session'` only). */
export function callerOf(ctx: ApiContext): Caller {
  return ctx.state.caller!;
}
