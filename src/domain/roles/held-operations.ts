import { OutOfScopeError, RoleDeniedError } from '../acl/acl.errors.js';
import type { Operation } from '../../wire/operations.js';

/**
 * What a key-server token may do beyond single keys, as the key server reports it: the operations of
 * its principal (the union of its roles and its groups' roles, api-surface.md "Roles"), and whether
 * the token is scoped (a scoped token reaches its listed keys only).
 */
export interface HeldOperations {
  readonly operations: readonly string[];
  readonly scoped: boolean;
}

/**
 * The key server's order of checks for an operation that is not about one key (api-surface.md
 * conventions): the role first (ROLE_DENIED), then the scope (OUT_OF_SCOPE).
 */
export function requireHeld(held: HeldOperations, operation: Operation): void {
  if (!held.operations.includes(operation)) throw new RoleDeniedError(`${operation}: not permitted by the caller's roles`);
  if (held.scoped) throw new OutOfScopeError(`${operation}: a scoped session reaches its keys only`);
}
