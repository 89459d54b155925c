import type { Operation } from '../../wire/operations.js';
import type { HeldOperations } from '../../wire/role.js';
import { OutOfScopeError, RoleDeniedError } from '../acl/acl.errors.js';

export type { HeldOperations } from '../../wire/role.js';

/**
 * The key server's order of checks for an operation that is not about one key (docs/spec.md §4.3
 * item 1): the role first (ROLE_DENIED), then the scope (OUT_OF_SCOPE).
 */
export function requireHeld(held: HeldOperations, operation: Operation): void {
  if (!held.operations.includes(operation)) throw new RoleDeniedError(`${operation}: not permitted by the caller's roles`);
  if (held.scoped) throw new OutOfScopeError(`${operation}: a scoped session reaches its keys only`);
}
