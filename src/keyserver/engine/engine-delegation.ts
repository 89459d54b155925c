import type { Operation } from '../../wire/operations.js';
import type { PrincipalRow } from './engine-model.js';
import { FIXED_ROLE, principalOperations } from './engine-roles.js';
import type { EngineStore } from './engine-store.port.js';

/**
 * Never delegable (docs/spec.md §4.18 item 4): managing principals, groups,
 * roles, trust, parameters and policy; any password or sender-key change; minting scoped or delegated
 * sessions. A delegated token holding the operation through its target is still refused.
 */
export const NEVER_DELEGABLE: ReadonlySet<Operation> = new Set<Operation>([
  'principals.create',
  'principals.update',
  'principals.delete',
  'principals.password',
  'principals.password.own',
  'principals.sender-key',
  'principals.sender-key.own',
  'groups.write',
  'roles.write',
  'trust.write',
  'trust.enroll',
  'server.parameters.write',
  'policy.write',
  'session.scope',
  'session.delegate',
]);

/**
 * A principal holding `admin` directly or through any group it belongs to is never a delegation
 * target. `groupIds`: its groups (given for a principal not stored yet, see certificate-provisioning).
 */
export async function holdsAdmin(store: EngineStore, principal: PrincipalRow, groupIds?: readonly string[]): Promise<boolean> {
  if (principal.roles.includes(FIXED_ROLE)) return true;
  for (const id of groupIds ?? (await store.groupIdsOf(principal.principalId))) {
    if ((await store.principalById(id))?.roles.includes(FIXED_ROLE) === true) return true;
  }
  return false;
}

/** The service's `delegates` names the target itself or a group the target belongs to. */
export async function listsTarget(
  store: EngineStore,
  service: PrincipalRow,
  target: PrincipalRow,
  groupIds?: readonly string[],
): Promise<boolean> {
  const delegates = service.delegates ?? [];
  if (delegates.includes(target.name)) return true;
  for (const id of groupIds ?? (await store.groupIdsOf(target.principalId))) {
    const group = await store.principalById(id);
    if (group !== undefined && !group.disabled && delegates.includes(group.name)) return true;
  }
  return false;
}

/**
 * Why `service` may not act for `target` now, or undefined when it may: the service exists, is an
 * enabled service holding `session.delegate`, lists the target, and the target holds no `admin`.
 */
export async function delegationRefusal(
  store: EngineStore,
  service: PrincipalRow | undefined,
  target: PrincipalRow,
  given?: readonly string[],
): Promise<string | undefined> {
  if (service?.kind !== 'service' || service.disabled) return 'the delegating service is gone or disabled';
  if (!(await principalOperations(store, service)).has('session.delegate')) return 'the service no longer holds session.delegate';
  const groupIds = given ?? (await store.groupIdsOf(target.principalId));
  if (await holdsAdmin(store, target, groupIds)) return `${target.name} holds admin and is never delegable`;
  if (!(await listsTarget(store, service, target, groupIds))) return `${target.name} is not in the delegates of ${service.name}`;
  return undefined;
}

/**
 * Ends, for good, every delegated token whose delegation no longer holds (docs/spec.md §4.18 item 3). Called by
 * every change that can break one (a principal updated or deleted, a membership, a role): a token
 * checked only at its next call would live again when the change is undone before that call.
 */
export async function endBrokenDelegations(store: EngineStore): Promise<void> {
  for (const row of await store.delegatedTokens()) {
    const target = await store.principalById(row.principalId);
    const service = await store.principalByName(row.actingFor ?? '');
    if (target === undefined || target.disabled || (await delegationRefusal(store, service, target)) !== undefined)
      await store.deleteToken(row.tokenHash);
  }
}
