/**
 * One answer of a list (docs/spec.md §4.1 item 4). `complete` is false when the key
 * server could not read the whole list: such a list is never shown as a whole one, and `reason` says
 * why. `next` is an opaque cursor for the following page.
 */
export interface ListResult<T> {
  readonly items: readonly T[];
  readonly complete: boolean;
  readonly reason?: string;
  readonly next?: string;
}

/** Page size bounds of the paginated lists (operations 21 and 35). */
export const LIST_LIMIT_MAX = 500;
export const LIST_LIMIT_DEFAULT = 100;
/** Page size bound of the list of groups (docs/spec.md §4.9 item 1); its default is LIST_LIMIT_DEFAULT. */
export const GROUPS_LIMIT_MAX = 1000;
/** Page size bound of the key list (docs/spec.md §4.23 item 1); its default is LIST_LIMIT_DEFAULT. */
export const KEYS_LIMIT_MAX = 1000;
/** The most `tag` filters one key list takes (docs/spec.md §4.23 item 1, §7). */
export const KEY_LIST_TAG_FILTERS_MAX = 10;
