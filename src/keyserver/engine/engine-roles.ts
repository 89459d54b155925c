import { isOperation, OPERATIONS, type Operation } from '../../wire/operations.js';
import { BUILT_IN_ROLES } from '../model/built-in-roles.js';
import type { PrincipalRow } from './engine-model.js';
import type { EngineStore } from './engine-store.port.js';

/** `admin` holds every operation and cannot be redefined (docs/spec.md §4.3 item 3). */
export const FIXED_ROLE = 'admin';

function isBuiltIn(name: string): name is keyof typeof BUILT_IN_ROLES {
  return Object.hasOwn(BUILT_IN_ROLES, name);
}

/** A role's operations: a stored definition wins over the built-in default; unknown: undefined. */
export async function roleOperations(store: EngineStore, name: string): Promise<readonly Operation[] | undefined> {
  if (name === FIXED_ROLE) return OPERATIONS;
  const stored = await store.role(name);
  if (stored !== undefined) return stored.operations.filter(isOperation);
  return isBuiltIn(name) ? BUILT_IN_ROLES[name] : undefined;
}

/** Every role name: the built-in ones and the stored ones, sorted. */
export async function roleNames(store: EngineStore): Promise<string[]> {
  return [...new Set([...Object.keys(BUILT_IN_ROLES), ...(await store.roles()).map((row) => row.name)])].sort();
}

/** A principal's operations: the union of its roles and its (enabled) groups' roles. */
export async function principalOperations(store: EngineStore, principal: PrincipalRow): Promise<Set<Operation>> {
  const roles = [...principal.roles];
  for (const groupId of await store.groupIdsOf(principal.principalId)) {
    const group = await store.principalById(groupId);
    if (group && !group.disabled) roles.push(...group.roles);
  }
  const held = new Set<Operation>();
  for (const role of roles) for (const operation of (await roleOperations(store, role)) ?? []) held.add(operation);
  return held;
}
