import { z } from 'zod';
import type { GatewayServices } from '../../../use-cases/index.js';
import { PROVISIONING_PARAMETERS } from '../../../wire/certificate.js';
import { textJson } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';

const schemas = {
  value: z.strictObject({ value: textJson(z.unknown()) }),
};

/** The provisioning policy (docs/spec.md §4.14). */
export function policyRoutes(services: GatewayServices): ApiRoute[] {
  const policy = services.policy;
  return [
    route({
      operationId: 'policy.provisioning.read',
      method: 'GET',
      path: '/api/policy/provisioning',
      auth: 'session',
      summary: 'The four auto-provisioning parameters',
      success: { status: 200, schema: responses.policy },
      async handle(ctx) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'readPolicy', {});
      },
    }),
    route({
      operationId: 'policy.provisioning.write',
      method: 'PUT',
      path: '/api/policy/provisioning/:parameter',
      auth: 'session',
      summary: 'Set one auto-provisioning parameter; unknown name 404, wrong type 400',
      body: schemas.value,
      params: { parameter: z.enum(PROVISIONING_PARAMETERS) },
      success: { status: 200, schema: responses.policy },
      async handle(ctx, { body, params }) {
        ctx.body = await policy.set(callerOf(ctx), params.parameter!, body.value);
      },
    }),
  ];
}
