import { z } from 'zod';
import { BadRequestError } from '../../../domain/errors/index.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { text } from '../schema/text-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { listBody, name, pageQuery, pem } from './api-schemas.js';

const schemas = {
  list: z.strictObject({ subject: text({ min: 1, max: 256 }).optional(), principal: name.optional(), ...pageQuery }),
  pem: z.strictObject({ pem }),
};

/** A certificate id in a path: the lower-case hex SHA-256 of the DER (upper case is accepted). */
export function certificateIdParam(params: Readonly<Record<string, string>>): string {
  const id = (params.id ?? '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) throw new BadRequestError('id: a certificate id is 64 hex characters');
  return id;
}

/**
 * Certificates (docs/spec.md §4.11). Parsing and verifying store nothing and read no
 * protected material: they are reads sent as POST, recorded after the fact (`kind: 'read'`).
 */
export function certificateRoutes(services: GatewayServices): ApiRoute[] {
  return [
    route({
      operationId: 'certificates.list',
      method: 'GET',
      path: '/api/certificates',
      auth: 'session',
      summary: 'Trusted authorities and enrolled certificates, by id (filters: subject part, principal)',
      query: schemas.list,
      success: { status: 200, schema: responses.certificates },
      async handle(ctx, { query }) {
        ctx.body = listBody(await services.keyServerCalls.call(callerOf(ctx), 'listCertificates', query));
      },
    }),
    route({
      operationId: 'certificates.read',
      method: 'GET',
      path: '/api/certificates/:id',
      auth: 'session',
      summary: 'One certificate object by its SHA-256 id',
      success: { status: 200, schema: responses.certificate },
      async handle(ctx, { params }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'readCertificate', { id: certificateIdParam(params) });
      },
    }),
    route({
      operationId: 'certificates.parse',
      kind: 'read',
      method: 'POST',
      path: '/api/certificates/parse',
      auth: 'session',
      summary: 'Read a PEM certificate; nothing is stored; garbage is 400 CERTIFICATE_MALFORMED',
      body: schemas.pem,
      success: { status: 200, schema: responses.certificate },
      async handle(ctx, { body }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'parseCertificate', { pem: body.pem });
      },
    }),
    route({
      operationId: 'certificates.verify',
      kind: 'read',
      method: 'POST',
      path: '/api/certificates/verify',
      auth: 'session',
      summary: 'Whether a certificate chains to a trusted authority now: { trusted, chain, reason? }',
      body: schemas.pem,
      success: { status: 200, schema: responses.verdict },
      async handle(ctx, { body }) {
        ctx.body = await services.keyServerCalls.call(callerOf(ctx), 'verifyCertificate', { pem: body.pem });
      },
    }),
  ];
}
