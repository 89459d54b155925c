import { ConfigError } from '../../keyserver/config-error.js';

const BARE_ORIGIN = /^(https?):\/\/([^/?#@\s]+)$/i;

/**
 * Parses the CORS allowlist (docs/spec.md §8 items 1-3): comma-separated bare origins,
 * whitespace around entries ignored, duplicates collapsed. Each entry is scheme, host and optional
 * port; a path, a trailing slash, a query, a fragment, no scheme, or `*` stops the boot. Entries are
 * returned in browser form (lower-case scheme and host, the scheme's default port omitted).
 */
export function parseCorsOrigins(value: string | undefined, variable = 'TE_GATEWAY_CORS_ORIGINS'): string[] {
  if (value === undefined || value.trim() === '') return [];
  const origins = new Set<string>();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    origins.add(parseOrigin(entry, variable));
  }
  return [...origins];
}

function parseOrigin(entry: string, variable: string): string {
  const refuse = (why: string) => new ConfigError(`${variable}: entry "${entry}" ${why}`);
  if (entry === '*' || entry.includes('*')) throw refuse('is a wildcard, which is not supported; list each origin');
  if (!BARE_ORIGIN.test(entry)) throw refuse('is not a bare origin (scheme://host[:port], no path, slash, query or fragment)');
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw refuse('is not a valid origin');
  }
  if (url.username !== '' || url.password !== '') throw refuse('carries credentials');
  return url.origin;
}

const PATH_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * `TE_GATEWAY_PUBLIC_ORIGIN` (or the `publicUrl` option): the origin clients address, optionally with
 * the base path the gateway is mounted under (`https://example.com/kg`), so that a proof's `htu`
 * (RFC 9449 §4.3 step 9) names the URL the client used. The origin follows the rules of an allowlist
 * entry; the path is plain segments (no `.`/`..`, no empty segment, no query or fragment); a trailing
 * slash is dropped. Answered without a trailing slash: `origin` or `origin/base/path`.
 */
export function parsePublicOrigin(value: string, variable = 'TE_GATEWAY_PUBLIC_ORIGIN'): string {
  const entry = value.trim();
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(\/[^?#]*)?$/i.exec(entry);
  if (match === null) return parseOrigin(entry, variable);
  const origin = parseOrigin(match[1]!, variable);
  const path = (match[2] ?? '').replace(/\/$/, '');
  if (path === '') return origin;
  const segments = path.slice(1).split('/');
  if (segments.some((segment) => !PATH_SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    throw new ConfigError(`${variable}: entry "${entry}" has a base path that is not plain segments (/a/b)`);
  }
  return `${origin}${path}`;
}
