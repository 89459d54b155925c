/**
 * Aliases (docs/spec.md §4.23 item 3): a name for one key, unique in the deployment. Wherever /api takes
 * a ttag it takes `alias/<name>` too, and the key server resolves it in the unit of the operation.
 */

/** 1..128 characters of ASCII letters, digits and `. _ -`, starting with a letter or a digit. */
export const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** What names a key by alias where a ttag is taken: no ttag the key server issues begins with it. */
export const ALIAS_PREFIX = 'alias/';
/** The most aliases one key carries (409 CONFLICT with `reason: "ALIAS_LIMIT"`). */
export const ALIAS_LIMIT = 50;
/** Page size bound of the alias list (docs/spec.md §4.23 item 3), as the key list's. */
export const ALIASES_LIMIT_MAX = 1000;

/** One alias as the key server answers it; times ISO 8601. */
export interface AliasView {
  readonly alias: string;
  readonly ttag: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Beside an answer about a key named by alias: the ttag the alias resolved to (absent for a key named by ttag). */
export interface Resolved {
  readonly resolved?: string;
}

export function isAliasName(value: string): boolean {
  return ALIAS_NAME.test(value);
}

/** The alias a key reference names (`alias/<name>`), or undefined for a ttag. */
export function aliasOf(reference: string): string | undefined {
  return reference.startsWith(ALIAS_PREFIX) ? reference.slice(ALIAS_PREFIX.length) : undefined;
}
