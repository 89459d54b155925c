import { Router } from '@koa/router';
import { z } from 'zod';
import { isKeygateError } from '../../../domain/errors/index.js';
import { RIGHTS } from '../../../domain/acl/acl.js';
import { parseTtag } from '../../../domain/key/ttag.js';
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

const challengeRequest = z.strictObject({ certificate: z.string().min(1, 'required').max(65_536) });
const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'not base64url');
const certificateLogin = z.strictObject({ challengeId: base64url.max(256), signature: base64url.max(4096) });
const ttag = z.string().min(1).max(512);
const scopedRequest = z.strictObject({
  objects: z.array(ttag).min(1).max(100),
  rights: z.array(z.enum(RIGHTS)).min(1).optional(),
  senderKey: z.record(z.string(), z.unknown()),
  ttlSeconds: z.number().int().min(60).max(900).default(300),
});
const delegatedRequest = z.union([
  z.strictObject({ principal: z.string().min(1).max(256) }),
  z.strictObject({ certificate: z.string().min(1).max(65_536) }),
]);

/** Sessions (api-surface.md operations 1-8). */
export function sessionsRouter(services: GatewayServices): Router {
  const router = new Router({ strict: true });
  const session = requireBearer(services);

  router.post('/api/session', async (ctx: ApiContext) => {
    const body = parseWith(passwordLogin, await readJsonBody(ctx));
    const minted = await services.sessions.loginWithPassword(body.user, new Secret(body.password));
    ctx.status = 201;
    ctx.body = sessionView(minted.session, minted.sessionId);
  });

  router.post('/api/session/certificate/challenge', async (ctx: ApiContext) => {
    const body = parseWith(challengeRequest, await readJsonBody(ctx));
    const issued = await services.sessions.certificateChallenge(body.certificate);
    ctx.status = 201;
    ctx.body = { challengeId: issued.challengeId, challenge: issued.challenge, expiresAt: new Date(issued.expiresAt).toISOString() };
  });

  router.post('/api/session/certificate', async (ctx: ApiContext) => {
    const body = parseWith(certificateLogin, await readJsonBody(ctx));
    const minted = await services.sessions.loginWithCertificate(body.challengeId, Buffer.from(body.signature, 'base64url'));
    ctx.status = 201;
    ctx.body = sessionView(minted.session, minted.sessionId);
  });

  router.post('/api/session/scoped', session, async (ctx: ApiContext) => {
    const body = parseWith(scopedRequest, await readJsonBody(ctx));
    const objects = body.objects.map((value, i) => parseTtag(value, `objects.${i}`));
    const minted = await services.sessions.mintScoped(callerOf(ctx), { ...body, objects });
    ctx.status = 201;
    ctx.body = sessionView(minted.session, minted.sessionId);
  });

  router.post('/api/session/delegated', session, async (ctx: ApiContext) => {
    const body = parseWith(delegatedRequest, await readJsonBody(ctx));
    const minted = await services.sessions.mintDelegated(callerOf(ctx), body);
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
