import { Router } from '@koa/router';
import { z } from 'zod';
import { isKeygateError } from '../../../domain/errors/index.js';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { bearerCredential } from '../credential.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import { callerOf, requireBearer, type ApiContext } from './api-context.js';
import { sessionListItem, sessionView } from './session-view.js';

const passwordLogin = z.strictObject({
  user: z.string().min(1, 'required').max(256),
  password: z.string().min(1, 'required').max(4096),
});

/** Sessions (api-surface.md operations 1, 6, 7, 8). */
export function sessionsRouter(services: GatewayServices): Router {
  const router = new Router({ strict: true });
  const session = requireBearer(services);

  router.post('/api/session', async (ctx: ApiContext) => {
    const body = parseWith(passwordLogin, await readJsonBody(ctx));
    const minted = await services.sessions.loginWithPassword(body.user, new Secret(body.password));
    ctx.status = 201;
    ctx.body = sessionView(minted.session, minted.sessionId);
  });

  // Logout is idempotent: 204 for a live credential, a dead one, and none (seed 001 §4).
  router.delete('/api/session', async (ctx: ApiContext, next) => {
    if (bearerCredential(ctx) === undefined) return void (ctx.status = 204);
    try {
      await session(ctx, next);
    } catch (error) {
      if (isKeygateError(error) && error.code === 'SESSION_UNKNOWN') return void (ctx.status = 204);
      throw error;
    }
  }, async (ctx: ApiContext) => {
    await services.sessions.logout(callerOf(ctx));
    ctx.status = 204;
  });

  router.get('/api/session', session, async (ctx: ApiContext) => {
    ctx.body = sessionView(callerOf(ctx).session);
  });

  router.get('/api/sessions', session, async (ctx: ApiContext) => {
    const items = await services.sessions.listOwn(callerOf(ctx));
    ctx.body = { items: items.map(sessionListItem), complete: true };
  });

  return router;
}
