import type { Middleware } from 'koa';
import { readTtag } from '../../../domain/key/ttag.js';
import type { PublishedJwks } from '../../../use-cases/published-jwks.js';
import { ALIAS_PREFIX, isAliasName } from '../../../wire/alias.js';
import type { GatewayState } from '../state.js';

/** Where published key sets are served (docs/spec.md §4.25 item 7): `/jwks/{name}.json`, `/jwks/keys/{ttag}.json`. */
export const JWKS_PATH = '/jwks';
/** What a published key set's answer may be kept for by a relying party or a cache in between. */
export const JWKS_CACHE_CONTROL = 'public, max-age=60';

const BY_KEY = /^\/jwks\/keys\/([^/]+)\.json$/;
const BY_ALIAS = /^\/jwks\/([^/]+)\.json$/;

/**
 * Serves a signing key's published JWKS without a session (docs/spec.md §4.25 item 7), GET and HEAD:
 * by alias or by ttag (percent-encoded standard base64, or base64url). Its answer is the one exception
 * to `no-store` (`Cache-Control: public, max-age=60`) and carries a strong ETag; `If-None-Match` with
 * it is 304. Whatever is not a published, active signing key (an unknown or malformed name too) is
 * 404 NOT_FOUND, all alike. Not audited, as health is not: it reveals public keys only.
 */
export function servePublishedJwks(jwks: PublishedJwks): Middleware<GatewayState> {
  return async function publishedJwks(ctx) {
    ctx.state.unauditedOperation = 'jwks';
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = { error: `method ${ctx.method} not allowed on ${ctx.path}` };
      return;
    }
    const reference = referenceOf(ctx.path);
    const answer = reference === undefined ? undefined : await jwks.read(reference);
    if (answer === undefined) {
      ctx.status = 404;
      ctx.body = { code: 'NOT_FOUND', detail: 'no published key set here' };
      return;
    }
    ctx.set('Cache-Control', JWKS_CACHE_CONTROL);
    ctx.set('ETag', answer.etag);
    if (matchesEtag(ctx.get('If-None-Match'), answer.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = answer.body;
  };
}

/** The key a path names: `alias/{name}` for `/jwks/{name}.json`, the canonical ttag for `/jwks/keys/{ttag}.json`. */
export function referenceOf(path: string): string | undefined {
  const byKey = BY_KEY.exec(path);
  if (byKey !== null) {
    const read = readTtag(decoded(byKey[1]!) ?? '');
    return 'ttag' in read ? read.ttag : undefined;
  }
  const byAlias = BY_ALIAS.exec(path);
  const name = byAlias === null ? undefined : decoded(byAlias[1]!);
  return name !== undefined && isAliasName(name) ? `${ALIAS_PREFIX}${name}` : undefined;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** RFC 9110 §13.1.2: `*`, or a list of entity tags one of which is ours (a weak comparison, as for GET). */
export function matchesEtag(header: string, etag: string): boolean {
  if (header === '') return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
