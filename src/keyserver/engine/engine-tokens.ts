import { createHash } from 'node:crypto';
import type { EngineContext } from './engine-context.js';
import type { PrincipalRow, TokenRow } from './engine-model.js';

export interface TokenOptions {
  readonly ttlMs?: number | undefined;
  readonly scope?: TokenRow['scope'];
  readonly actingFor?: string;
  readonly notAfter?: number | undefined;
}

/** The store keeps a token's SHA-256 only: a copy of the store opens no session. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/**
 * Issues a token for a principal (logins and minted sessions): 256 random bits, living the
 * `tokenTtlSeconds` parameter (0: for ever) unless `ttlMs` says otherwise, and never past `notAfter`.
 */
export async function issueToken(
  ctx: Pick<EngineContext, 'store' | 'now' | 'random' | 'parameters'>,
  principal: PrincipalRow,
  options: TokenOptions = {},
): Promise<{ token: string; expiresAt: number | undefined }> {
  const token = Buffer.from(ctx.random.bytes(32)).toString('base64url');
  const issuedAt = ctx.now();
  const ttlSeconds = await ctx.parameters.value('tokenTtlSeconds');
  const ttl = options.ttlMs ?? (ttlSeconds === 0 ? undefined : ttlSeconds * 1000);
  let expiresAt = ttl === undefined ? undefined : issuedAt + ttl;
  if (options.notAfter !== undefined) expiresAt = expiresAt === undefined ? options.notAfter : Math.min(expiresAt, options.notAfter);
  await ctx.store.putToken({
    tokenHash: hashToken(token),
    principalId: principal.principalId,
    issuedAt,
    expiresAt,
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    ...(options.actingFor === undefined ? {} : { actingFor: options.actingFor }),
  });
  return { token, expiresAt };
}
