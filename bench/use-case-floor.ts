import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import { openAdapters } from '../src/app/adapters.js';
import { parseGatewayConfig } from '../src/app/config/config.js';
import { buildContainer, resolveServices } from '../src/app/container.js';
import { closeGatewayParts } from '../src/app/create-gateway.js';
import { parseTtag } from '../src/domain/key/ttag.js';
import { Secret } from '../src/domain/secret/secret.js';
import { sessionView } from '../src/transports/koa/api/session-view.js';
import { recordRequest } from '../src/transports/koa/http/access-log.js';
import { openResponse } from '../src/transports/koa/http/open-response.js';
import { readJsonBody } from '../src/transports/koa/http/read-body.js';
import { exportRequest as exportSchema } from '../src/transports/koa/root/root.schema.js';
import { parseWith } from '../src/transports/koa/schema/parse.js';
import type { GatewayState } from '../src/transports/koa/state.js';
import type { AuditDraft } from '../src/use-cases/audit.js';
import type { Caller } from '../src/use-cases/session-context.js';
import { ADMIN_PASSWORD, DEPLOYED, deployedLogger, exportRequest } from './deployed.js';

/** A bare Koa app doing one route's required work, and its two requests. */
export interface UseCaseFloor {
  /** `GET /api/session` with `Authorization: Bearer`. */
  readonly session: { readonly url: string; readonly headers: Record<string, string> };
  /** `POST /keys` with `X-Session`. */
  readonly keys: { readonly url: string; readonly method: 'POST'; readonly headers: Record<string, string> };
  /** `POST /keys/export` of a key of the session's principal, with `X-Session`. */
  readonly exported: { readonly url: string; readonly method: 'POST'; readonly headers: Record<string, string>; readonly body: string };
  close(): Promise<void>;
}

/**
 * A measuring tool, never served to anyone: the floor of a route's required work on Koa. Bare Koa, one
 * handler per route, calling the route's use case over the adapters a gateway opens (the embedded key
 * server, the memory session store, the chained memory audit log), and doing the rest of what a
 * request must: its id and the three headers of every response (`openResponse`), the chained audit
 * record (begun first for `POST /keys` and the export, whose wrap overlaps it as in the gateway), the
 * JSON body read and checked (export), the access line and the request metrics (`recordRequest`,
 * the deployed logger and prom-client). Nothing else: no error shaping, no routing, no body limit, no
 * client address resolution, no CORS. A request this app cannot answer fails the run.
 *
 * The gateway's ratio to this app is what its transport costs over the work; this app's ratio to bare
 * Koa is what the work costs on Koa, a ceiling no transport over the same use cases passes.
 */
export async function startUseCaseFloor(): Promise<UseCaseFloor> {
  const config = parseGatewayConfig({
    keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD },
    maxSessionsPerPrincipal: 100_000_000,
    ...DEPLOYED,
  });
  const { generatedPasswords: _generated, auditVerifyKeys, ...adapters } = await openAdapters(config, { logger: deployedLogger() });
  const services = resolveServices(buildContainer(config, adapters, auditVerifyKeys));
  const { logger, metrics } = adapters;
  const trail = services.auditTrail;

  /** What every request does around its route: id, headers, record, access line. */
  const served =
    (
      operation: string,
      credential: (ctx: Context) => string | undefined,
      work: (ctx: Context, caller: Caller, draft: AuditDraft) => Promise<void>,
    ) =>
    async (ctx: Context) => {
      const started = performance.now();
      const opened = openResponse(ctx.req.headers);
      for (let i = 0; i < opened.headers.length; i += 2) ctx.res.setHeader(opened.headers[i]!, opened.headers[i + 1]!);
      const draft = trail.start(opened.requestId);
      draft.operation = operation;
      const client = ctx.req.socket.remoteAddress ?? '';
      draft.clientAddress = client;
      const caller = await services.sessions.authenticate(credential(ctx));
      draft.principal = caller.session.identity.user;
      draft.sessionRef = caller.session.ref;
      await work(ctx, caller, draft);
      await trail.finish(draft, { status: ctx.status });
      recordRequest(logger, metrics, {
        requestId: opened.requestId,
        traceId: opened.traceId,
        operation,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        seconds: (performance.now() - started) / 1e3,
        client,
        peer: client,
        principal: draft.principal,
        sessionRef: draft.sessionRef,
      });
    };

  const readSession = served(
    'session.read',
    (ctx) => ctx.get('Authorization').slice('Bearer '.length),
    async (ctx, caller) => {
      ctx.body = sessionView(caller.session);
    },
  );
  const generateKey = served(
    'keys.generate',
    (ctx) => ctx.get('X-Session'),
    async (ctx, caller, draft) => {
      await trail.begin(draft);
      const generated = await services.keys.generate(caller, { keyLen: 16 });
      draft.object = generated.ttag;
      ctx.body = generated;
    },
  );
  const exportKey = served(
    'keys.export',
    (ctx) => ctx.get('X-Session'),
    async (ctx, caller, draft) => {
      const body = await readJsonBody(ctx as Context & { state: GatewayState });
      const request = parseWith(exportSchema, body);
      const ttag = parseTtag(request.ttag);
      draft.object = ttag;
      // The pending record's write, the export's first half beside it, its key read once the record is stored.
      const recording = trail.begin(draft);
      ctx.body = await services.keys.export(caller, ttag, request.clientPubKey, undefined, () => recording);
    },
  );
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/api/session') return readSession(ctx);
    if (ctx.method === 'POST' && ctx.path === '/keys') return generateKey(ctx);
    if (ctx.method === 'POST' && ctx.path === '/keys/export') return exportKey(ctx);
    ctx.status = 404;
  });
  const server = createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { sessionId } = await services.sessions.loginWithPassword('admin', new Secret(ADMIN_PASSWORD), '127.0.0.1');
  // The export's key is made through this app's own POST /keys, as the gateway rows make theirs.
  const exported = await exportRequest(url, sessionId);
  return {
    session: { url: `${url}/api/session`, headers: { Authorization: `Bearer ${sessionId}` } },
    keys: { url: `${url}/keys`, method: 'POST', headers: { 'X-Session': sessionId } },
    exported: { url: `${url}/keys/export`, method: 'POST', headers: exported.headers, body: exported.body },
    async close() {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
      await closeGatewayParts(services, adapters);
    },
  };
}
