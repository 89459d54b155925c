import type { Right } from '../../wire/acl.js';

/** The access list of one key: its owner and the principals granted rights on it. */
export interface KeyAccessList {
  readonly owner: string;
  readonly entries: ReadonlyMap<string, readonly Right[]>;
}

/** The principal asking, and the groups it belongs to (group entries count for members). */
export interface Requester {
  readonly principalId: string;
  readonly groupIds: readonly string[];
}
