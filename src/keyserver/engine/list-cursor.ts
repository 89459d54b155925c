import { LIST_LIMIT_MAX, type ListResult } from '../../wire/list-result.js';
import { BadRequestError } from '../model/key-server-errors.js';

/**
 * Keyset pagination: rows come in key order, and the cursor names the last key of a page. The cursor
 * is opaque to clients (base64url of a small JSON naming its list), so its form may change. `limit`
 * runs from 1 to `max` (LIST_LIMIT_MAX unless the list's section says otherwise).
 */
export async function pageOf<R>(
  query: { readonly limit: number; readonly cursor?: string | undefined },
  list: string,
  read: (after: string | undefined, count: number) => readonly R[] | Promise<readonly R[]>,
  keyOf: (row: R) => string,
  max: number = LIST_LIMIT_MAX,
): Promise<ListResult<R>> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > max) {
    throw new BadRequestError(`limit: an integer from 1 to ${max}`);
  }
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, list);
  const rows = await read(after, query.limit + 1);
  const items = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  return { items, complete: true, ...(more ? { next: encodeCursor(list, keyOf(items[items.length - 1]!)) } : {}) };
}

/** The opaque cursor naming `after` in `list`. */
export function encodeCursor(list: string, after: string): string {
  return Buffer.from(JSON.stringify({ l: list, a: after }), 'utf8').toString('base64url');
}

/** What a cursor of `list` names; BAD_REQUEST for any other string. */
export function decodeCursor(cursor: string, list: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown; a?: unknown };
    if (parsed.l === list && typeof parsed.a === 'string') return parsed.a;
  } catch {
    // answered below
  }
  throw new BadRequestError('cursor: not a cursor of this list');
}
