import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { callerOf } from './api-context.js';
import { route, type ApiRoute } from './api-route.js';

const pem = z.string().min(1, 'required').max(65_536);
const schemas = {
  pem: z.strictObject({ pem }),
  enrollment: z.strictObject({ principal: z.string().min(1, 'required').max(256), pem }),
  value: z.strictObject({ value: z.unknown() }),
};

/** Certificate trust and enrollment (40, 42), sender keys (28), provisioning policy (47, 48). */
export function identityAdminRoutes(services: GatewayServices): ApiRoute[] {
  const admin = services.identityAdmin;
  return [
    route({
      operationId: 'trust.authorities.add', method: 'POST', path: '/api/trust/authorities', auth: 'session',
      summary: 'Trust a certificate authority (a CA certificate)', body: schemas.pem, success: { status: 201 },
      async handle(ctx, { body }) {
        ctx.status = 201;
        ctx.body = await admin.addTrustAuthority(callerOf(ctx), body.pem);
      },
    }),
    route({
      operationId: 'trust.enrollments.add', method: 'POST', path: '/api/trust/enrollments', auth: 'session',
      summary: 'Enroll a leaf that chains to a trusted authority to a principal', body: schemas.enrollment, success: { status: 201 },
      async handle(ctx, { body }) {
        ctx.status = 201;
        ctx.body = await admin.enrollCertificate(callerOf(ctx), body.principal, body.pem);
      },
    }),
    route({
      operationId: 'policy.provisioning.read', method: 'GET', path: '/api/policy/provisioning', auth: 'session',
      summary: 'The four auto-provisioning parameters', success: { status: 200 },
      async handle(ctx) {
        ctx.body = await admin.readPolicy(callerOf(ctx));
      },
    }),
    route({
      operationId: 'policy.provisioning.write', method: 'PUT', path: '/api/policy/provisioning/:parameter', auth: 'session',
      summary: 'Set one auto-provisioning parameter', body: schemas.value, success: { status: 200 },
      async handle(ctx, { body, params }) {
        ctx.body = await admin.setPolicy(callerOf(ctx), params.parameter!, body.value);
      },
    }),
  ];
}
