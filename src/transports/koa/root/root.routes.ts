import { z } from 'zod';
import { aclEntryObject } from '../../../domain/audit/audit.js';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import { GRANT_RIGHTS } from '../../../wire/acl.js';
import { keyServerDaemons, wrappedExport } from '../api/api-responses.js';
import { healthAnswer } from '../http/health-probe.js';
import { exportRequest, generateRequest, grantRequest, loginRequest, revokeRequest } from './root.schema.js';
import { type RootContext, type RootRoute, rootRoute } from './root-route.js';

const ok = z.object({ ok: z.literal(true) });

/** The grant response: the grantee's resolved identity (docs/spec.md §2.2). */
const grantee = z.object({ user: z.string(), systemId: z.number().int(), principalId: z.string().regex(/^[0-9a-f]{16}$/) });

function caller(ctx: RootContext): Caller {
  return ctx.state.caller!;
}

/** The seven operations (docs/spec.md §2.1, §2.2) at the root of the gateway, each with its request and its answer. */
export function rootRouteTable(services: GatewayServices): RootRoute[] {
  // Each state change, session mint or key release below is a `write` or the `release`: performed
  // under its audit record, begun first (fail closed), as the /api routes are (audit-scope.ts).
  return [
    rootRoute({
      operationId: 'root.login',
      operation: 'login',
      auditOperation: 'login',
      method: 'POST',
      path: '/login',
      auth: 'none',
      summary: 'Password login: an X-Session id for the other operations',
      body: loginRequest,
      answer: z.object({
        sessionId: z.string(),
        user: z.string(),
        systemId: z.number().int(),
        principalId: z.string(),
        hasToken: z.literal(true),
      }),
      errors: [400, 401, 502],
      kind: 'write',
      about: ({ body }) => ({ principal: body.user }),
      async handle(ctx, { body, audit }) {
        const { sessionId, session: minted } = await services.sessions.loginWithPassword(
          body.user,
          new Secret(body.password),
          ctx.state.clientKey,
        );
        audit.note({ sessionRef: minted.ref });
        ctx.body = { sessionId, ...minted.identity, hasToken: true };
      },
    }),
    rootRoute({
      operationId: 'root.logout',
      operation: 'logout',
      auditOperation: 'logout',
      method: 'POST',
      path: '/logout',
      auth: 'session',
      summary: 'End the session',
      answer: ok,
      errors: [401, 500],
      kind: 'write',
      async handle(ctx) {
        await services.sessions.logout(caller(ctx));
        ctx.body = { ok: true };
      },
    }),
    rootRoute({
      operationId: 'root.keys.generate',
      operation: 'generate',
      auditOperation: 'keys.generate',
      method: 'POST',
      path: '/keys',
      auth: 'session',
      summary: 'Generate a 16-byte key owned by the caller',
      body: generateRequest,
      answer: z.object({ ttag: z.string().describe('standard base64') }),
      errors: [400, 401, 403, 500],
      kind: 'write',
      async handle(ctx, { audit }) {
        const made = (ttag: string) =>
          audit.made({ object: ttag }, () => services.keyServerCalls.call(caller(ctx), 'withdrawKey', { ttag }));
        ctx.body = await services.keys.generate(caller(ctx), { keyLen: 16 }, made);
      },
    }),
    rootRoute({
      operationId: 'root.keys.export',
      operation: 'export',
      auditOperation: 'keys.export',
      method: 'POST',
      path: '/keys/export',
      auth: 'session',
      summary: "Export a key wrapped to the client's ephemeral P-256 key",
      body: exportRequest,
      answer: wrappedExport,
      errors: [400, 401, 403, 500],
      kind: 'release',
      about: ({ body }) => ({ object: body.ttag }),
      async handle(ctx, { body, audit }) {
        // The newest version, answered with exactly the fields of docs/spec.md §2.2 (no `version`).
        const { wrapped, algo, keyLen } = await services.keys.exportAes(caller(ctx), body.ttag, body.clientPubKey, audit.recorded);
        ctx.body = { wrapped, algo, keyLen };
      },
    }),
    rootRoute({
      operationId: 'root.keys.grant',
      operation: 'grant',
      auditOperation: 'keys.grant',
      method: 'POST',
      path: '/keys/grant',
      auth: 'session',
      summary: 'Give a user export access to a key (owner)',
      body: grantRequest,
      answer: z.object({ ok: z.literal(true), grantee }),
      errors: [400, 401, 403, 500],
      kind: 'write',
      about: ({ body }) => ({ object: aclEntryObject(body.ttag, body.grantee) }),
      async handle(ctx, { body }) {
        const entry = await services.acl.grant(caller(ctx), body.ttag, body.grantee, GRANT_RIGHTS, 'applied');
        ctx.body = { ok: true, grantee: entry.principal };
      },
    }),
    rootRoute({
      operationId: 'root.keys.revoke',
      operation: 'revoke',
      auditOperation: 'keys.revoke',
      method: 'POST',
      path: '/keys/revoke',
      auth: 'session',
      summary: "Take a user's access to a key away (owner)",
      body: revokeRequest,
      answer: ok,
      errors: [400, 401, 403, 500],
      kind: 'write',
      about: ({ body }) => ({ object: aclEntryObject(body.ttag, body.grantee) }),
      async handle(ctx, { body }) {
        await services.acl.revoke(caller(ctx), body.ttag, body.grantee, 'applied');
        ctx.body = { ok: true };
      },
    }),
    // Health probes leave no audit record (docs/spec.md §9.1) and do no I/O of their own;
    // a plain probe is answered before Koa (`withHealthProbes`), the same way.
    rootRoute({
      operationId: 'root.health',
      operation: 'health',
      auditOperation: 'health',
      audited: false,
      method: 'GET',
      path: '/health',
      auth: 'none',
      summary: 'Liveness, the key-server fingerprint and the live session count',
      answer: z.object({ ok: z.boolean(), ksFingerprint: z.string(), sessions: z.number().int(), keyServers: keyServerDaemons }),
      errors: [500],
      kind: 'read',
      async handle(ctx) {
        ctx.body = healthAnswer(await services.health.report(), 'root').body;
      },
    }),
  ];
}
