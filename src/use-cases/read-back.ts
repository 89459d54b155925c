import { isKeygateError, NotSavedError, NotVerifiedError } from '../domain/errors/index.js';

/** Reads an object back; NOT_FOUND from the key server means it is not there (undefined). */
export async function readBack<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isKeygateError(error) && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** A comparable form: object keys sorted, arrays of plain values sorted (sets such as rights, roles). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (Array.isArray(item) && item.every((entry) => typeof entry !== 'object' || entry === null)) return [...item].sort();
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return item;
  });
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * Judges a read-back (docs/spec.md §4.1 item 3): missing -> NOT_SAVED; showing what was asked -> the stored
 * value; still showing the state from before the write -> NOT_SAVED; anything else -> NOT_VERIFIED.
 * `project` picks the fields the write was about.
 */
export function verifyWrite<T>(what: string, asked: unknown, project: (value: T) => unknown, after: T | undefined, before?: T): T {
  if (after === undefined) throw new NotSavedError(`${what}: not found when read back`);
  const got = project(after);
  if (sameValue(got, asked)) return after;
  if (before !== undefined && sameValue(got, project(before)))
    throw new NotSavedError(`${what}: the read-back still shows the state before the write`);
  throw new NotVerifiedError(`${what}: the read-back differs from what was asked`);
}
