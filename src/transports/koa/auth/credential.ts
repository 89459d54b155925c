import type { Context } from 'koa';
import { BadRequestError } from '../../../domain/errors/index.js';

const BEARER = /^(?:Bearer|DPoP) +([^\s]+) *$/i;

/**
 * The session credential of an /api request: `Authorization: Bearer <sessionId>` (docs/spec.md §4.2 item 1), or
 * `Authorization: DPoP <sessionId>` as RFC 9449 §7.1 clients send it: the proof
 * rule follows the session either way. Any other Authorization scheme, or none, is no credential.
 */
export function bearerCredential(ctx: Context): string | undefined {
  const header = singleField(ctx, 'Authorization');
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1];
}

/** The scheme the request's Authorization header used, for the challenge of a 401 (`Bearer` otherwise). */
export function authorizationScheme(ctx: Context): 'Bearer' | 'DPoP' {
  return /^DPoP /i.test(ctx.get('Authorization')) ? 'DPoP' : 'Bearer';
}

/** The session credential of a seven-operation request: the `X-Session` header (docs/spec.md §2.4 item 1). */
export function sessionHeaderCredential(ctx: Context): string | undefined {
  const header = singleField(ctx, 'X-Session');
  return header === '' ? undefined : header;
}

/**
 * The one value of a credential field, or '' without one. A credential is not a list (RFC 9110 §5.3:
 * a field sent more than once must be one that allows a list): two of them are refused with
 * BAD_REQUEST rather than served with either. Node keeps only the first `Authorization` in
 * `headers` and joins repeated unknown fields with a comma, so the count is read from
 * `headersDistinct`, which keeps every line received.
 */
function singleField(ctx: Context, name: 'Authorization' | 'X-Session'): string {
  const lines = ctx.req.headersDistinct[name.toLowerCase()];
  if (lines !== undefined && lines.length > 1) throw new BadRequestError(`${name}: sent ${lines.length} times; send one credential`);
  return ctx.get(name);
}
