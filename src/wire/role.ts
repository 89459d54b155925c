/** A role name the key server accepts: a letter or digit, then letters, digits, `.`, `_` or `-`, 64 at most. */
export const ROLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A role as the API shows it (docs/spec.md §4.10): a name and its operation ids. */
export interface RoleView {
  readonly name: string;
  readonly operations: readonly string[];
}

/**
 * What a key-server token may do beyond single keys, as the key server reports it: the operations of
 * its principal (the union of its roles and its groups' roles, docs/spec.md §4.3 item 2), and whether
 * the token is scoped (a scoped token reaches its listed keys only).
 */
export interface HeldOperations {
  readonly operations: readonly string[];
  readonly scoped: boolean;
}
