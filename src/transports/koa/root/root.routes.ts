import { z } from 'zod';
import { aclEntryObject } from '../../../domain/audit/audit.js';
import { parseTtag } from '../../../domain/key/ttag.js';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import { GRANT_RIGHTS } from '../../../wire/acl.js';
import { keyServerDaemons, wrappedExport } from '../api/api-responses.js';
import { healthAnswer } from '../health-probe.js';
import { type AuditAbout, noteAudit, performAudited, releaseWhenRecorded, undoUnlessRecorded } from '../request-audit.js';
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
  // Each state change, session mint or key release below is performed under its audit record, begun
  // first (fail closed), as the /api routes are (request-audit.ts).
  const audited = <R>(ctx: RootContext, about: AuditAbout, perform: () => Promise<R>) =>
    performAudited(services.auditTrail, ctx, about, perform);
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
      async handle(ctx, { body }) {
        const { sessionId, session: minted } = await audited(ctx, { principal: body.user }, () =>
          services.sessions.loginWithPassword(body.user, new Secret(body.password), ctx.state.clientKey),
        );
        noteAudit(ctx, { sessionRef: minted.ref });
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
      async handle(ctx) {
        await audited(ctx, {}, () => services.sessions.logout(caller(ctx)));
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
      async handle(ctx) {
        const made = (ttag: string) =>
          undoUnlessRecorded(ctx, { object: ttag }, () => services.keyServerCalls.call(caller(ctx), 'withdrawKey', { ttag }));
        ctx.body = await audited(ctx, {}, () => services.keys.generate(caller(ctx), { keyLen: 16 }, made));
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
      async handle(ctx, { body }) {
        const ttag = parseTtag(body.ttag);
        // The pending record and the export's first half (wrap, connection) overlap; key material is
        // read once it landed. The newest version, answered with exactly the fields of
        // docs/spec.md §2.2 (no `version`).
        const { wrapped, algo, keyLen } = await releaseWhenRecorded(services.auditTrail, ctx, { object: ttag }, () =>
          services.keys.prepareExport(caller(ctx), ttag, body.clientPubKey),
        );
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
      async handle(ctx, { body }) {
        const ttag = parseTtag(body.ttag);
        const entry = await audited(ctx, { object: aclEntryObject(ttag, body.grantee) }, () =>
          services.acl.grant(caller(ctx), ttag, body.grantee, GRANT_RIGHTS, 'applied'),
        );
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
      async handle(ctx, { body }) {
        const ttag = parseTtag(body.ttag);
        await audited(ctx, { object: aclEntryObject(ttag, body.grantee) }, () =>
          services.acl.revoke(caller(ctx), ttag, body.grantee, 'applied'),
        );
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
      async handle(ctx) {
        ctx.body = healthAnswer(await services.health.report(), 'root').body;
      },
    }),
  ];
}
