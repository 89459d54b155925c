import type { Context } from 'koa';

const BEARER = /^(?:Bearer|DPoP) +([^\s]+) *$/i;

/**
 * The session credential of an /api request: `Authorization: Bearer <sessionId>` (docs/spec.md §4.2 item 1), or
 * `Authorization: DPoP <sessionId>` as RFC 9449 §7.1 clients send it: the proof
 * rule follows the session either way. Any other Authorization scheme, or none, is no credential.
 */
export function bearerCredential(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1];
}

/** The scheme the request's Authorization header used, for the challenge of a 401 (`Bearer` otherwise). */
export function authorizationScheme(ctx: Context): 'Bearer' | 'DPoP' {
  return /^DPoP /i.test(ctx.get('Authorization')) ? 'DPoP' : 'Bearer';
}

/** The session credential of a seven-operation request: the `X-Session` header (docs/spec.md §2.4 item 1). */
export function sessionHeaderCredential(ctx: Context): string | undefined {
  const header = ctx.get('X-Session');
  return header === '' ? undefined : header;
}
