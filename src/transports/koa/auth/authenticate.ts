import type { Context } from 'koa';
import type { GatewayServices } from '../../../use-cases/index.js';
import { readRawBody } from '../http/read-body.js';
import type { GatewayState } from '../state.js';
import { expectedHtu } from './expected-htu.js';

/**
 * Resolves the presented credential to its session and, for a bound session, checks the request's
 * proof before anything else is decided (docs/spec.md §5.1: the constraint belongs to the session, not the
 * route, and the proof is checked before authorization). `ath` covers the exact
 * credential string, `bth` the exact body bytes, `htu` the expected URL built at the edge.
 */
export async function authenticate(ctx: Context & { state: GatewayState }, services: GatewayServices, credential: string | undefined) {
  const caller = await services.sessions.authenticate(credential);
  if (caller.session.jkt !== undefined) {
    const body = await readRawBody(ctx);
    await services.proofs.check(caller.session, {
      method: ctx.method,
      htu: expectedHtu(ctx, ctx.state.publicOrigin),
      credential: credential!,
      body,
      proofs: ctx.req.headersDistinct.dpop ?? [],
    });
  }
  ctx.state.caller = caller;
  ctx.state.credential = credential;
  return caller;
}
