import type { Context } from 'koa';

/**
 * The URL a proof's `htu` must name (RFC 9449 §4.3 step 9). With a public URL configured
 * (TE_GATEWAY_PUBLIC_ORIGIN, `publicUrl`): that origin and base path, then the path the gateway routes
 * on (a mount point has stripped its prefix from it). Otherwise the connection's scheme, the Host header
 * and the path as the client sent it, before any mount stripped it: koa-mount keeps it in
 * `ctx.originalUrl`, Express in `req.originalUrl`. Never X-Forwarded-* or an absolute-form request
 * line: the app does not trust a proxy.
 */
export function expectedHtu(ctx: Context, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return `${publicUrl}${ctx.path}`;
  const original = (ctx.req as { originalUrl?: unknown }).originalUrl;
  const requested = typeof original === 'string' ? original : ctx.originalUrl;
  const path = requested.startsWith('/') ? requested.replace(/[?#].*$/s, '') : ctx.path;
  return `${ctx.protocol}://${ctx.get('Host')}${path}`;
}
