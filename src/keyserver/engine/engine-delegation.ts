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
export function holdsAdmin(store: EngineStore, principal: PrincipalRow, groupIds: readonly string[] = store.groupIdsOf(principal.principalId)): boolean {
  if (principal.roles.includes(FIXED_ROLE)) return true;
  return groupIds.some((id) => store.principalById(id)?.roles.includes(FIXED_ROLE) === true);
}

/** The service's `delegates` names the target itself or a group the target belongs to. */
export function listsTarget(
  store: EngineStore,
  service: PrincipalRow,
  target: PrincipalRow,
  groupIds: readonly string[] = store.groupIdsOf(target.principalId),
): boolean {
  const delegates = service.delegates ?? [];
  if (delegates.includes(target.name)) return true;
  return groupIds.some((id) => {
    const group = store.principalById(id);
    return group !== undefined && !group.disabled && delegates.includes(group.name);
  });
}

/**
 * Why `service` may not act for `target` now, or undefined when it may: the service exists, is an
 * enabled service holding `session.delegate`, lists the target, and the target holds no `admin`.
 */
export function delegationRefusal(
  store: EngineStore,
  service: PrincipalRow | undefined,
  target: PrincipalRow,
  groupIds: readonly string[] = store.groupIdsOf(target.principalId),
): string | undefined {
  if (service?.kind !== 'service' || service.disabled) return 'the delegating service is gone or disabled';
  if (!principalOperations(store, service).has('session.delegate')) return 'the service no longer holds session.delegate';
  if (holdsAdmin(store, target, groupIds)) return `${target.name} holds admin and is never delegable`;
  if (!listsTarget(store, service, target, groupIds)) return `${target.name} is not in the delegates of ${service.name}`;
  return undefined;
}

/**
 * Ends, for good, every delegated token whose delegation no longer holds (docs/spec.md §4.18 item 3). Called by
 * every change that can break one (a principal updated or deleted, a membership, a role): a token
 * checked only at its next call would live again when the change is undone before that call.
 */
export function endBrokenDelegations(store: EngineStore): void {
  for (const row of store.delegatedTokens()) {
    const target = store.principalById(row.principalId);
    const service = store.principalByName(row.actingFor ?? '');
    if (target === undefined || target.disabled || delegationRefusal(store, service, target) !== undefined) store.deleteToken(row.tokenHash);
  }
}
