import type { Context } from 'koa';
import type { KeygateError } from '../../../domain/errors/keygate-error.js';
import { authorizationScheme } from '../auth/credential.js';

/** The proof algorithms the gateway accepts (docs/spec.md §5.3 step 3, §6.5), announced in every DPoP challenge. */
const DPOP_ALGS = 'ES256 RS256';

/**
 * The `WWW-Authenticate` value of a 401 on /api (RFC 9110 §11.6.1: a 401 carries a challenge).
 * - No credential, or a refused login: the schemes, without an error code (RFC 6750 §3.1).
 * - A proof refusal: `DPoP error="invalid_dpop_proof"` with `algs` (RFC 9449 §7.1).
 * - An unknown, expired or refused session or credential: `invalid_token` in the scheme the request
 *   used (`DPoP` then with `algs`).
 */
export function wwwAuthenticate(error: KeygateError, ctx: Context): string {
  const realm = 'realm="keygate"';
  const dpop = (...params: string[]) => ['DPoP', [realm, ...params, `algs="${DPOP_ALGS}"`].join(', ')].join(' ');
  if (error.code === 'SESSION_REQUIRED') return `Bearer ${realm}, ${dpop()}`;
  // A refused login presented no token: the challenge says how to authenticate, with no token error.
  if (error.code === 'WRONG_CREDENTIAL') return `Bearer ${realm}`;
  const description = `error_description="${quoted(error.detail)}"`;
  if (error.code.startsWith('PROOF_')) return dpop('error="invalid_dpop_proof"', description);
  if (authorizationScheme(ctx) === 'DPoP') return dpop('error="invalid_token"', description);
  return `Bearer ${realm}, error="invalid_token", ${description}`;
}

/** A detail as a quoted-string (RFC 9110 §5.6.4), limited to the characters RFC 6750 §3 allows. */
function quoted(detail: string): string {
  return detail.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, ' ').slice(0, 200);
}
