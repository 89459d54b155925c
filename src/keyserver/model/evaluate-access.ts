import { type GrantConditions, RIGHTS, type Right } from '../../wire/acl.js';
import { type EncryptionContext, unmetConditionNames } from '../../wire/encryption-context.js';
import type { KeyAccessList, Requester } from './acl.js';

/** One entry that names the requester (its own or one of its groups'), as the ACL holds it. */
interface RequesterEntry {
  readonly rights: readonly Right[];
  readonly conditions?: GrantConditions;
}

/** The requester's entries: its own first, then its groups' in the requester's order (by name). */
function entriesOf(acl: KeyAccessList, requester: Requester): RequesterEntry[] {
  const entries: RequesterEntry[] = [];
  for (const id of [requester.principalId, ...requester.groupIds]) {
    const rights = acl.entries.get(id);
    if (rights === undefined) continue;
    const conditions = acl.conditions.get(id);
    entries.push(conditions === undefined ? { rights } : { rights, conditions });
  }
  return entries;
}

function inRightsOrder(held: ReadonlySet<Right>): Right[] {
  return RIGHTS.filter((right) => held.has(right));
}

/**
 * The rights a requester holds with no condition: all of them for the owner, otherwise the union of its
 * own and its groups' unconditioned entries (docs/spec.md §4.7, §4.3 item 4, §4.5b item 4: what an
 * operation carrying no context may use, what `access` answers as `rights`).
 */
export function effectiveRights(acl: KeyAccessList, requester: Requester): Right[] {
  if (isOwner(acl, requester)) return [...RIGHTS];
  return inRightsOrder(new Set(entriesOf(acl, requester).flatMap((entry) => (entry.conditions === undefined ? entry.rights : []))));
}

/**
 * Every right an entry of the requester gives, conditioned or not: minting a scoped session counts a
 * conditioned right as held, the condition still applying at each use (docs/spec.md §4.5b item 4).
 */
export function grantedRights(acl: KeyAccessList, requester: Requester): Right[] {
  if (isOwner(acl, requester)) return [...RIGHTS];
  return inRightsOrder(new Set(entriesOf(acl, requester).flatMap((entry) => entry.rights)));
}

/**
 * The requester's conditioned entries, its own first, then its groups' by name (docs/spec.md §4.5b
 * item 4, `access`'s `conditional`). The owner has none: it is never conditioned.
 */
export function conditionalGrants(acl: KeyAccessList, requester: Requester): { rights: Right[]; context: EncryptionContext }[] {
  if (isOwner(acl, requester)) return [];
  return entriesOf(acl, requester).flatMap((entry) =>
    entry.conditions === undefined ? [] : [{ rights: inRightsOrder(new Set(entry.rights)), context: entry.conditions.context }],
  );
}

/**
 * Whether a request holds `right`: `unmet` present when only conditioned entries give it and the
 * request's context meets none of them (CONTEXT_REQUIRED: the names lacking or holding another value,
 * sorted, never a value); absent when no entry gives it (ACL_DENIED).
 */
export type AccessDecision = { readonly held: true } | { readonly held: false; readonly unmet?: readonly string[] };

/**
 * docs/spec.md §4.5b item 4: a right is held when the requester owns the key, or an entry giving it has
 * no condition or one the request's `context` meets (an operation that carries no context passes none).
 */
export function decideAccess(acl: KeyAccessList, requester: Requester, right: Right, context?: EncryptionContext): AccessDecision {
  if (isOwner(acl, requester)) return { held: true };
  const unmet = new Set<string>();
  let conditioned = false;
  for (const entry of entriesOf(acl, requester)) {
    if (!entry.rights.includes(right)) continue;
    if (entry.conditions === undefined) return { held: true };
    const lacking = unmetConditionNames(entry.conditions.context, context);
    if (lacking.length === 0) return { held: true };
    conditioned = true;
    for (const name of lacking) unmet.add(name);
  }
  return conditioned ? { held: false, unmet: [...unmet].sort() } : { held: false };
}

export function isOwner(acl: KeyAccessList, requester: Requester): boolean {
  return acl.owner === requester.principalId;
}
