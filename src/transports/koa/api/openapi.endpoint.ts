import { type ApiRoute, route } from './api-route.js';

/** Where the document is served (public; not one of the 51 operations). */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * GET /api/openapi.json (docs/spec.md §4.17): the document, public, not audited and not
 * one of the 51 operations. Its `servers` names the URL it was fetched by: the public URL when one is
 * configured, else the connection's scheme, the Host header and the mount point the gateway sits under.
 */
export function openApiRoute(document: () => Record<string, unknown>, publicUrl: string | undefined): ApiRoute {
  let built: Record<string, unknown> | undefined;
  return route({
    operationId: 'openapi',
    method: 'GET',
    path: OPENAPI_PATH,
    auth: 'none',
    audited: false,
    summary: 'This OpenAPI document: the /api surface and the seven operations',
    success: { status: 200 },
    openApi: {
      tags: ['discovery'],
      security: [],
      responses: { 200: { description: 'the OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
    async handle(ctx) {
      built ??= document();
      const url =
        publicUrl ?? `${ctx.protocol}://${ctx.get('Host')}${mountPoint(ctx.req as { originalUrl?: unknown }, ctx.originalUrl, ctx.path)}`;
      ctx.body = { ...built, servers: [{ url, description: 'this gateway' }] };
    },
  });
}

/** The prefix a host stripped before the gateway saw the path (koa-mount, Express `app.use('/kg')`). */
function mountPoint(req: { originalUrl?: unknown }, originalUrl: string, path: string): string {
  const requested = (typeof req.originalUrl === 'string' ? req.originalUrl : originalUrl).replace(/[?#].*$/s, '');
  return requested.endsWith(path) ? requested.slice(0, requested.length - path.length) : '';
}
