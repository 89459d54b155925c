import { RIGHTS, type Right } from '../../wire/acl.js';
import type { KeyAccessList, Requester } from './acl.js';

/**
 * The effective rights of a requester on a key: all of them for the owner, otherwise the union of its
 * own entry and its groups' entries (docs/spec.md §4.7, §4.3 item 4).
 */
export function effectiveRights(acl: KeyAccessList, requester: Requester): Right[] {
  if (acl.owner === requester.principalId) return [...RIGHTS];
  const held = new Set<Right>();
  for (const id of [requester.principalId, ...requester.groupIds]) {
    for (const right of acl.entries.get(id) ?? []) held.add(right);
  }
  return RIGHTS.filter((right) => held.has(right));
}

/** docs/spec.md §2.3 items 3-4: an export needs owner or grantee; the owner alone may change the ACL. */
export function canUse(acl: KeyAccessList, requester: Requester, right: Right): boolean {
  return effectiveRights(acl, requester).includes(right);
}

export function isOwner(acl: KeyAccessList, requester: Requester): boolean {
  return acl.owner === requester.principalId;
}
