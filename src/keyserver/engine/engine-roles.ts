import { BUILT_IN_ROLES } from '../model/built-in-roles.js';
import { OPERATIONS, isOperation, type Operation } from '../../wire/operations.js';
import type { EngineStore } from './engine-store.port.js';
import type { PrincipalRow } from './engine-model.js';

/** `admin` holds every operation and cannot be redefined (docs/spec.md §4.3 item 3). */
export const FIXED_ROLE = 'admin';

function isBuiltIn(name: string): name is keyof typeof BUILT_IN_ROLES {
  return Object.hasOwn(BUILT_IN_ROLES, name);
}

/** A role's operations: a stored definition wins over the built-in default; unknown: undefined. */
export function roleOperations(store: EngineStore, name: string): readonly Operation[] | undefined {
  if (name === FIXED_ROLE) return OPERATIONS;
  const stored = store.role(name);
  if (stored !== undefined) return stored.operations.filter(isOperation);
  return isBuiltIn(name) ? BUILT_IN_ROLES[name] : undefined;
}

/** Every role name: the built-in ones and the stored ones, sorted. */
export function roleNames(store: EngineStore): string[] {
  return [...new Set([...Object.keys(BUILT_IN_ROLES), ...store.roles().map((row) => row.name)])].sort();
}

/** A principal's operations: the union of its roles and its (enabled) groups' roles. */
export function principalOperations(store: EngineStore, principal: PrincipalRow): Set<Operation> {
  const roles = [...principal.roles];
  for (const groupId of store.groupIdsOf(principal.principalId)) {
    const group = store.principalById(groupId);
    if (group && !group.disabled) roles.push(...group.roles);
  }
  const held = new Set<Operation>();
  for (const role of roles) for (const operation of roleOperations(store, role) ?? []) held.add(operation);
  return held;
}
