import type { Context } from 'koa';
import { GRANT_RIGHTS } from '../../../wire/acl.js';
import { aclEntryObject } from '../../../domain/audit/audit.js';
import { parseTtag } from '../../../domain/key/ttag.js';
import { Secret } from '../../../domain/secret/secret.js';
import type { GatewayServices } from '../../../use-cases/index.js';
import type { Caller } from '../../../use-cases/session-context.js';
import { authenticate } from '../authenticate.js';
import { sessionHeaderCredential } from '../credential.js';
import { beginAudit, nameAuditedOperation, noteAudit, undoUnlessRecorded, type AuditAbout } from '../request-audit.js';
import { parseWith } from '../parse.js';
import { readJsonBody } from '../read-body.js';
import type { GatewayState } from '../state.js';
import type { RootOperation } from './root.errors.js';
import { exportRequest, generateRequest, grantRequest, loginRequest, revokeRequest } from './root.schema.js';
import { StaticRoutes } from '../static-routes.js';
import { healthAnswer } from '../health-probe.js';

type RootContext = Context & { state: GatewayState & { operation?: RootOperation } };
type NamedOperation = Exclude<RootOperation, 'health'>;
type Handler = (ctx: RootContext) => Promise<void>;

/** The seven operations' ids in the audit log (docs/spec.md §9.1). */
const AUDIT_OPERATIONS = {
  login: 'login',
  logout: 'logout',
  generate: 'keys.generate',
  export: 'keys.export',
  grant: 'keys.grant',
  revoke: 'keys.revoke',
} as const satisfies Record<NamedOperation, string>;

/**
 * One operation as one step: named for the error mapper (`<op> denied or failed`) and the audit log;
 * then, where docs/spec.md §2.4 asks for one (every route but login and health), the `X-Session` session and
 * a bound session's proof (`ath` then hashing the `X-Session` value); then the handler.
 */
function operationStep(services: GatewayServices, name: NamedOperation, needsSession: boolean, handle: Handler) {
  const trail = services.auditTrail;
  return async function runOperation(ctx: RootContext) {
    ctx.state.operation = name;
    nameAuditedOperation(trail, ctx, AUDIT_OPERATIONS[name]);
    if (needsSession) await authenticate(ctx, services, sessionHeaderCredential(ctx));
    await handle(ctx);
  };
}

function caller(ctx: RootContext): Caller {
  return ctx.state.caller!;
}

/** The seven operations (docs/spec.md §2) at the root of the gateway. */
export function rootRouter(services: GatewayServices): StaticRoutes<RootContext> {
  const router = new StaticRoutes<RootContext>();
  const open = (name: NamedOperation, handle: Handler) => operationStep(services, name, false, handle);
  const guarded = (name: NamedOperation, handle: Handler) => operationStep(services, name, true, handle);
  // Each state change, session mint or key release below is begun in the audit log first (fail closed).
  const begin = (ctx: RootContext, about?: AuditAbout) => beginAudit(services.auditTrail, ctx, about);

  router.post(
    '/login',
    open('login', async (ctx) => {
      const body = parseWith(loginRequest, await readJsonBody(ctx));
      await begin(ctx, { principal: body.user });
      const { sessionId, session: minted } = await services.sessions.loginWithPassword(body.user, new Secret(body.password), ctx.state.clientKey);
      noteAudit(ctx, { sessionRef: minted.ref });
      ctx.body = { sessionId, ...minted.identity, hasToken: true };
    }),
  );

  router.post(
    '/logout',
    guarded('logout', async (ctx) => {
      await begin(ctx);
      await services.sessions.logout(caller(ctx));
      ctx.body = { ok: true };
    }),
  );

  router.post(
    '/keys',
    guarded('generate', async (ctx) => {
      parseWith(generateRequest, await readJsonBody(ctx));
      await begin(ctx);
      const made = (ttag: string) => undoUnlessRecorded(ctx, { object: ttag }, () => services.keys.expire(caller(ctx), ttag));
      ctx.body = await services.keys.generate(caller(ctx), { keyLen: 16 }, made);
    }),
  );

  router.post(
    '/keys/export',
    guarded('export', async (ctx) => {
      const body = parseWith(exportRequest, await readJsonBody(ctx));
      const ttag = parseTtag(body.ttag);
      // The pending record and the key-server connection overlap; key material is read once it landed.
      // The newest version, answered with exactly the fields of docs/spec.md §2.2 (no `version`).
      const { wrapped, algo, keyLen } = await services.keys.export(caller(ctx), ttag, body.clientPubKey, begin(ctx, { object: ttag }));
      ctx.body = { wrapped, algo, keyLen };
    }),
  );

  router.post(
    '/keys/grant',
    guarded('grant', async (ctx) => {
      const body = parseWith(grantRequest, await readJsonBody(ctx));
      const ttag = parseTtag(body.ttag);
      await begin(ctx, { object: aclEntryObject(ttag, body.grantee) });
      const entry = await services.acl.grant(caller(ctx), ttag, body.grantee, GRANT_RIGHTS, 'applied');
      ctx.body = { ok: true, grantee: entry.principal };
    }),
  );

  router.post(
    '/keys/revoke',
    guarded('revoke', async (ctx) => {
      const body = parseWith(revokeRequest, await readJsonBody(ctx));
      const ttag = parseTtag(body.ttag);
      await begin(ctx, { object: aclEntryObject(ttag, body.grantee) });
      await services.acl.revoke(caller(ctx), ttag, body.grantee, 'applied');
      ctx.body = { ok: true };
    }),
  );

  // Health probes leave no audit record (docs/spec.md §9.1) and do no I/O of their own;
  // a plain probe is answered before Koa (`withHealthProbes`), the same way.
  router.get('/health', async (ctx: RootContext) => {
    ctx.state.operation = 'health';
    ctx.state.unauditedOperation = 'health';
    ctx.body = healthAnswer(await services.health.report(), 'root').body;
  });

  return router;
}
