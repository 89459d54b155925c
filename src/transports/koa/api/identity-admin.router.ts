import { Router } from '@koa/router';
import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import { callerOf, requireBearer, type ApiContext } from './api-context.js';

const pemBody = z.strictObject({ pem: z.string().min(1, 'required').max(65_536) });
const enrollment = z.strictObject({ principal: z.string().min(1, 'required').max(256), pem: z.string().min(1, 'required').max(65_536) });
const senderKey = z.strictObject({ jwk: z.record(z.string(), z.unknown()) });
const policyValue = z.strictObject({ value: z.unknown() });

/**
 * Certificate trust and enrollment (api-surface.md 40, 42), sender keys (28) and the provisioning
 * policy (47, 48). The key server decides authorization.
 */
export function identityAdminRouter(services: GatewayServices): Router {
  const router = new Router({ strict: true });
  const session = requireBearer(services);
  const admin = services.identityAdmin;

  router.post('/api/trust/authorities', session, async (ctx: ApiContext) => {
    const body = parseWith(pemBody, await readJsonBody(ctx));
    ctx.status = 201;
    ctx.body = await admin.addTrustAuthority(callerOf(ctx), body.pem);
  });

  router.post('/api/trust/enrollments', session, async (ctx: ApiContext) => {
    const body = parseWith(enrollment, await readJsonBody(ctx));
    ctx.status = 201;
    ctx.body = await admin.enrollCertificate(callerOf(ctx), body.principal, body.pem);
  });

  router.put('/api/principals/:name/sender-key', session, async (ctx: ApiContext & { params: { name: string } }) => {
    const body = parseWith(senderKey, await readJsonBody(ctx));
    ctx.body = await admin.putSenderKey(callerOf(ctx), ctx.params.name, body.jwk);
  });

  router.get('/api/policy/provisioning', session, async (ctx: ApiContext) => {
    ctx.body = await admin.readPolicy(callerOf(ctx));
  });

  router.put('/api/policy/provisioning/:parameter', session, async (ctx: ApiContext & { params: { parameter: string } }) => {
    const body = parseWith(policyValue, await readJsonBody(ctx));
    ctx.body = await admin.setPolicy(callerOf(ctx), ctx.params.parameter, body.value);
  });

  return router;
}
