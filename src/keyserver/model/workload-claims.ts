import { PRINCIPAL_NAME } from '../../wire/principal.js';

/**
 * The claim rules of a workload token (docs/spec.md §4.24 items 1, 2): a claim named by a path of
 * names separated by `/`, a principal template over claims, bound claims with `*` globs. Pure.
 */

/** The claim at `path` (`kubernetes.io/serviceaccount/name`); undefined when any step is missing. */
export function claimAt(claims: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = claims;
  for (const step of path.split('/')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * The principal name a template gives: each `{path}` replaced by its claim, a string or an integer.
 * Answers the refusal (a sentence) instead when a claim is missing or the result is no principal name.
 */
export function renderPrincipal(template: string, claims: Readonly<Record<string, unknown>>): { name: string } | { refusal: string } {
  let missing: string | undefined;
  const name = template.replace(/\{([^{}]+)\}/g, (_, path: string) => {
    const value = claimAt(claims, path);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
    missing ??= path;
    return '';
  });
  if (missing !== undefined) return { refusal: `the claim ${missing} is not a string or an integer` };
  if (!PRINCIPAL_NAME.test(name)) return { refusal: 'the template does not give a principal name' };
  return { name };
}

/** `*` matches any run of characters (none too); every other character itself. */
export function globMatches(pattern: string, value: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

/**
 * The first bound claim the token's claims do not meet, or undefined: the claim (a string, or a list
 * any of whose strings does) must match one of the values.
 */
export function unmetBoundClaim(
  bound: Readonly<Record<string, string | readonly string[]>>,
  claims: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const [path, expected] of Object.entries(bound)) {
    const patterns = typeof expected === 'string' ? [expected] : expected;
    const value = claimAt(claims, path);
    const candidates = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
    if (!candidates.some((candidate) => patterns.some((pattern) => globMatches(pattern, candidate)))) return path;
  }
  return undefined;
}
