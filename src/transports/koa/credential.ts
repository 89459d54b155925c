import type { Context } from 'koa';

const BEARER = /^Bearer +([^\s]+) *$/i;

/**
 * The session credential of an /api request: `Authorization: Bearer <sessionId>` (seed 001 §5.1).
 * Any other Authorization scheme, or none, is no credential.
 */
export function bearerCredential(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1];
}

/** The session credential of a seven-operation request: the `X-Session` header (seed 000 §5.1). */
export function sessionHeaderCredential(ctx: Context): string | undefined {
  const header = ctx.get('X-Session');
  return header === '' ? undefined : header;
}
