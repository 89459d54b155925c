import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { issuerSettings } from '../../../wire/workload-issuer.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody, name, pem } from './api-schemas.js';
import { certificateIdParam } from './certificates.routes.js';

const schemas = {
  pem: z.strictObject({ pem }),
  enrollment: z.strictObject({ principal: name, pem }),
};

/** Certificate trust (docs/spec.md §4.12). */
export function trustRoutes(services: GatewayServices): ApiRoute[] {
  const trust = services.trust;
  return [
    route({
      operationId: 'trust.authorities.list',
      method: 'GET',
      path: '/api/trust/authorities',
      auth: 'session',
      summary: 'The trusted certificate authorities',
      success: { status: 200, schema: responses.certificates },
      async handle(ctx) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listTrustAuthorities', {}));
      },
    }),
    route({
      operationId: 'trust.authorities.add',
      method: 'POST',
      path: '/api/trust/authorities',
      auth: 'session',
      summary: 'Trust a certificate authority (a CA certificate)',
      body: schemas.pem,
      success: { status: 201, schema: responses.certificate },
      async handle(ctx, { body }) {
        ctx.status = 201;
        ctx.body = await trust.addAuthority(callerOf(ctx), body.pem);
      },
    }),
    route({
      operationId: 'trust.authorities.delete',
      method: 'DELETE',
      path: '/api/trust/authorities/:id',
      auth: 'session',
      summary: 'Stop trusting an authority; logins of the leaves it issued are refused',
      success: { status: 204 },
      async handle(ctx, { params }) {
        await trust.removeAuthority(callerOf(ctx), certificateIdParam(params));
        ctx.status = 204;
      },
    }),
    route({
      operationId: 'trust.enrollments.add',
      method: 'POST',
      path: '/api/trust/enrollments',
      auth: 'session',
      summary: 'Enroll a leaf that chains to a trusted authority to a principal',
      body: schemas.enrollment,
      success: { status: 201, schema: responses.certificate },
      auditObject: ({ body }) => body.principal,
      async handle(ctx, { body }) {
        ctx.status = 201;
        ctx.body = await trust.enroll(callerOf(ctx), body.principal, body.pem);
      },
    }),
    route({
      operationId: 'trust.issuers.list',
      method: 'GET',
      path: '/api/trust/issuers',
      auth: 'session',
      summary: 'The trusted issuers of workload identity tokens (docs/spec.md §4.24)',
      success: { status: 200, schema: responses.issuers },
      async handle(ctx) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listIssuers', {}));
      },
    }),
    route({
      operationId: 'trust.issuers.read',
      method: 'GET',
      path: '/api/trust/issuers/:name',
      auth: 'session',
      summary: 'One trusted issuer',
      success: { status: 200, schema: responses.issuer },
      auditObject: ({ params }) => params.name,
      async handle(ctx, { params }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'readIssuer', { name: params.name! });
      },
    }),
    route({
      operationId: 'trust.issuers.put',
      method: 'PUT',
      path: '/api/trust/issuers/:name',
      auth: 'session',
      summary: 'Trust an issuer of workload identity tokens, or replace its settings',
      body: issuerSettings,
      success: { status: 200, schema: responses.issuer },
      auditObject: ({ params }) => params.name,
      async handle(ctx, { params, body }) {
        ctx.body = await trust.putIssuer(callerOf(ctx), params.name!, body);
      },
    }),
    route({
      operationId: 'trust.issuers.delete',
      method: 'DELETE',
      path: '/api/trust/issuers/:name',
      auth: 'session',
      summary: 'Stop trusting an issuer; sign-ins with its tokens are refused',
      success: { status: 204 },
      auditObject: ({ params }) => params.name,
      async handle(ctx, { params }) {
        await trust.deleteIssuer(callerOf(ctx), params.name!);
        ctx.status = 204;
      },
    }),
  ];
}
