import type { GrantConditions, Right } from '../../wire/acl.js';

/** The access list of one key: its owner and the principals granted rights on it. */
export interface KeyAccessList {
  readonly owner: string;
  readonly entries: ReadonlyMap<string, readonly Right[]>;
  /**
   * The conditions of the entries that have them, by principal id (docs/spec.md §4.5b item 4); an
   * entry not named here is unconditioned.
   */
  readonly conditions: ReadonlyMap<string, GrantConditions>;
}

/**
 * The principal asking, and the groups it belongs to (group entries count for members), the groups in
 * the order of their names (docs/spec.md §4.5b item 4 answers conditional entries in that order).
 */
export interface Requester {
  readonly principalId: string;
  readonly groupIds: readonly string[];
}
