/** `scheme://authority` then the path; whatever follows starts with `?` or `#` (or is nothing). */
const HTTP_URI = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/;
/** A host (registered name, IPv4, or bracketed IPv6 literal) and an optional port; no userinfo. */
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[^\s:@[\]]+)(?::([0-9]{0,5}))?$/;
const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

/**
 * The form in which an `htu` claim and the request's own URI are compared (RFC 9449 §4.3 step 9,
 * docs/spec.md §5.3):
 * - query and fragment are dropped (RFC 9449 §4.3: "ignoring any query and fragment parts");
 * - scheme and host are lower-cased, the scheme's default port is dropped (RFC 3986 §6.2.2.1,
 *   §6.2.3);
 * - an empty path is `/` (RFC 9110 §4.2.3); any other path is kept exactly: no trailing-slash,
 *   dot-segment or percent-encoding folding.
 *
 * Returns undefined for anything that is not an absolute `scheme://host[:port]/path` URI, so that
 * it never matches.
 */
export function normaliseHtu(value: string): string | undefined {
  const uri = HTTP_URI.exec(value);
  if (!uri) return undefined;
  const [, rawScheme = '', rawAuthority = '', rawPath = ''] = uri;
  const authority = AUTHORITY.exec(rawAuthority);
  if (!authority) return undefined;
  const scheme = rawScheme.toLowerCase();
  const host = (authority[1] ?? '').toLowerCase();
  const port = authority[2] ? Number(authority[2]) : undefined;
  if (port !== undefined && port > 65_535) return undefined;
  const shownPort = port === undefined || port === DEFAULT_PORTS[scheme] ? '' : `:${port}`;
  const path = rawPath === '' ? '/' : rawPath;
  return `${scheme}://${host}${shownPort}${path}`;
}

/** Whether a claimed `htu` names the request's URI (both normalised; an unreadable one never does). */
export function htuMatches(claimed: string, expected: string): boolean {
  const a = normaliseHtu(claimed);
  return a !== undefined && a === normaliseHtu(expected);
}
