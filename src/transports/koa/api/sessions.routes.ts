import { z } from 'zod';
import { isKeygateError } from '../../../domain/errors/index.js';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import { peekToken } from '../../../use-cases/workload-sign-in.js';
import { RIGHTS } from '../../../wire/acl.js';
import { authenticate } from '../auth/authenticate.js';
import { bearerCredential } from '../auth/credential.js';
import { expectedHtu } from '../auth/expected-htu.js';
import { readRawBody } from '../http/read-body.js';
import { text, textJson } from '../schema/text-schema.js';
import { ttagField } from '../schema/ttag-schema.js';
import { callerOf } from './api-context.js';
import { responses } from './api-responses.js';
import { type ApiRoute, route } from './api-route.js';
import { pem } from './api-schemas.js';
import { sessionListItem, sessionView } from './session-view.js';

const user = text({ min: 1, minMessage: 'required', max: 256 });
const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'not base64url');

export const schemas = {
  passwordLogin: z.strictObject({ user, password: text({ min: 1, minMessage: 'required', max: 4096 }) }),
  challenge: z.strictObject({ certificate: pem }),
  certificateLogin: z.strictObject({ challengeId: base64url.max(256), signature: base64url.max(4096) }),
  scoped: z.strictObject({
    objects: z
      .array(ttagField(text({ min: 1, max: 512 })))
      .min(1)
      .max(100),
    rights: z.array(z.enum(RIGHTS)).min(1).optional(),
    senderKey: textJson(z.record(z.string(), z.unknown())),
    ttlSeconds: z.number().int().min(60).max(900).default(300),
  }),
  jwt: z.strictObject({
    issuer: text({ min: 1, minMessage: 'required', max: 64 }).optional(),
    token: z
      .string()
      .min(1)
      .max(16_384)
      .regex(/^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/, 'not a compact JWS'),
  }),
  delegated: z.union([z.strictObject({ principal: user }), z.strictObject({ certificate: pem })]),
};

/** Sessions (docs/spec.md §4.4). */
export function sessionRoutes(services: GatewayServices): ApiRoute[] {
  const sessions = services.sessions;
  return [
    route({
      operationId: 'session.password',
      method: 'POST',
      path: '/api/session',
      auth: 'none',
      summary: 'Password login (checked against the SRP-6a verifier; the password never leaves the gateway); an unbound session',
      body: schemas.passwordLogin,
      success: { status: 201, schema: responses.session },
      auditPrincipal: ({ body }) => body.user,
      async handle(ctx, { body, audit }) {
        // docs/spec.md §9.1: a login names who signed in (auditPrincipal: also who tried) and the session it minted.
        const minted = await sessions.loginWithPassword(body.user, new Secret(body.password), ctx.state.clientKey);
        audit.note({ sessionRef: minted.session.ref });
        ctx.status = 201;
        ctx.body = sessionView(minted.session, minted.sessionId);
      },
    }),
    route({
      operationId: 'session.certificate.challenge',
      method: 'POST',
      path: '/api/session/certificate/challenge',
      auth: 'none',
      summary: 'First leg of certificate login: a single-use 32-byte challenge, valid 60 s',
      body: schemas.challenge,
      success: { status: 201, schema: responses.challenge },
      async handle(ctx, { body }) {
        const issued = await sessions.certificateChallenge(body.certificate, ctx.state.clientKey);
        ctx.status = 201;
        ctx.body = { challengeId: issued.challengeId, challenge: issued.challenge, expiresAt: new Date(issued.expiresAt).toISOString() };
      },
    }),
    route({
      operationId: 'session.certificate',
      method: 'POST',
      path: '/api/session/certificate',
      auth: 'none',
      summary: 'Second leg of certificate login: the signature over the challenge',
      body: schemas.certificateLogin,
      success: { status: 201, schema: responses.session },
      async handle(ctx, { body, audit }) {
        const minted = await sessions.loginWithCertificate(body.challengeId, Buffer.from(body.signature, 'base64url'), ctx.state.clientKey);
        audit.note({ principal: minted.session.identity.user, sessionRef: minted.session.ref });
        ctx.status = 201;
        ctx.body = sessionView(minted.session, minted.sessionId);
      },
    }),
    route({
      operationId: 'session.jwt',
      method: 'POST',
      path: '/api/session/jwt',
      auth: 'none',
      summary: "Workload sign-in with its platform's signed token, verified over a trusted issuer (docs/spec.md §4.24); an unbound session",
      body: schemas.jwt,
      success: { status: 201, schema: responses.session },
      auditPrincipal: ({ body }) => triedSubject(body.token),
      async handle(ctx, { body, audit }) {
        // docs/spec.md §4.24 item 5: issuer, subject and jti, never the token.
        const minted = await sessions.loginWithJwt(body, ctx.state.clientKey, {
          method: ctx.method,
          htu: expectedHtu(ctx, ctx.state.publicOrigin),
          body: await readRawBody(ctx),
          proofs: ctx.req.headersDistinct.dpop ?? [],
        });
        const object = [minted.issuer, minted.subject, ...(minted.jti === undefined ? [] : [minted.jti])].join(' ');
        audit.note({ principal: minted.session.identity.user, sessionRef: minted.session.ref, object });
        ctx.status = 201;
        ctx.body = sessionView(minted.session, minted.sessionId);
      },
    }),
    route({
      operationId: 'session.scoped',
      method: 'POST',
      path: '/api/session/scoped',
      auth: 'session',
      summary: 'A session narrowed to listed keys and rights, bound to senderKey',
      body: schemas.scoped,
      success: { status: 201, schema: responses.session },
      async handle(ctx, { body }) {
        const minted = await sessions.mintScoped(callerOf(ctx), body);
        ctx.status = 201;
        ctx.body = sessionView(minted.session, minted.sessionId);
      },
    }),
    route({
      operationId: 'session.delegated',
      method: 'POST',
      path: '/api/session/delegated',
      auth: 'session',
      summary: 'A session acting as an externally authenticated principal; bound services only',
      body: schemas.delegated,
      success: { status: 201, schema: responses.session },
      async handle(ctx, { body }) {
        const minted = await sessions.mintDelegated(callerOf(ctx), body);
        ctx.status = 201;
        ctx.body = sessionView(minted.session, minted.sessionId);
      },
    }),
    route({
      operationId: 'session.logout',
      method: 'DELETE',
      path: '/api/session',
      auth: 'none',
      summary: 'Logout: 204 for a live credential, a dead one, and none',
      success: { status: 204 },
      async handle(ctx) {
        ctx.status = 204;
        if (bearerCredential(ctx) === undefined) return;
        try {
          await authenticate(ctx, services, bearerCredential(ctx));
        } catch (error) {
          if (isKeygateError(error) && error.code === 'SESSION_UNKNOWN') return;
          throw error;
        }
        await sessions.logout(callerOf(ctx));
      },
    }),
    route({
      operationId: 'session.read',
      method: 'GET',
      path: '/api/session',
      auth: 'session',
      summary: 'The session view of the presented session',
      success: { status: 200, schema: responses.session },
      async handle(ctx) {
        ctx.body = sessionView(callerOf(ctx).session);
      },
    }),
    route({
      operationId: 'sessions.list',
      method: 'GET',
      path: '/api/sessions',
      auth: 'session',
      summary: "The live sessions of the caller's principal, by non-secret reference",
      success: { status: 200, schema: responses.sessions },
      async handle(ctx) {
        const items = await sessions.listOwn(callerOf(ctx));
        ctx.body = { items: items.map(sessionListItem), complete: true };
      },
    }),
  ];
}

/** Who a refused workload token claimed to be (its `sub`, when readable), for the record of the attempt. */
function triedSubject(token: string): string {
  try {
    return peekToken(token).sub ?? '';
  } catch {
    return '';
  }
}
