import type { KeyPageQuery, KeyRow } from './engine-model.js';
import { keyStateOf } from './engine-views.js';

/**
 * The key list's rules over one key row (docs/spec.md §4.23 item 1), for a store that reads its keys
 * one by one (the memory store); the durable stores say the same in SQL (key-page-sql.ts).
 */
export function keyMatches(key: KeyRow, query: KeyPageQuery): boolean {
  const state = keyStateOf(key, query.now);
  return (
    (query.visibleTo === undefined || isVisible(key, query.visibleTo)) &&
    (query.ttags === undefined || query.ttags.includes(key.ttag)) &&
    (query.owner === undefined || key.owner === query.owner) &&
    (query.labelPrefix === undefined || (key.label?.startsWith(query.labelPrefix) ?? false)) &&
    query.tags.every(({ name, value }) => key.tags[name] !== undefined && (value === undefined || key.tags[name] === value)) &&
    (query.state === undefined ? state !== 'deleted' : state === query.state) &&
    (query.createdAfter === undefined || key.createdAt > query.createdAfter) &&
    (query.createdBefore === undefined || key.createdAt < query.createdBefore) &&
    (query.after === undefined || byListOrder(key, query.after) > 0)
  );
}

/**
 * Owned by one of the principals, or granted to one of them by an unconditioned entry of the key's ACL
 * (any right; docs/spec.md §4.5b item 4: the list counts only unconditioned rights).
 */
export function isVisible(key: KeyRow, principalIds: readonly string[]): boolean {
  return principalIds.includes(key.owner) || principalIds.some((id) => key.acl.has(id) && !key.aclConditions?.has(id));
}

/** The list's order: newest first by createdAt, then by ttag in code-unit order, descending. */
export function byListOrder(a: { createdAt: number; ttag: string }, b: { createdAt: number; ttag: string }): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.ttag < b.ttag ? 1 : a.ttag > b.ttag ? -1 : 0;
}
