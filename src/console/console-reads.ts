/**
 * The console's own reads, as the audit screen recognises them: the `X-Request-Id` of every GET this
 * page sent to /api since it was loaded (docs/spec.md §9.1: an audit record's `requestId` is its
 * response's `X-Request-Id`). Exact, with no list of operation names to keep: a record is one of the
 * console's reads when its request id is one of these. Kept in the page's memory only, the newest
 * MOST_KEPT of them; a reload starts afresh (the reads before it are shown as anyone's).
 */
const MOST_KEPT = 10_000;

const seen = new Set<string>();

export function isConsoleRead(requestId: string): boolean {
  return seen.has(requestId);
}

/** The fetch the console's client uses: the page's own, noting the request id of each GET's answer. */
export const notingFetch: typeof fetch = async (input, init) => {
  const response = await globalThis.fetch(input, init);
  const requestId = response.headers.get('X-Request-Id');
  if ((init?.method ?? 'GET') === 'GET' && requestId !== null) note(requestId);
  return response;
};

function note(requestId: string): void {
  seen.add(requestId);
  if (seen.size > MOST_KEPT) seen.delete(seen.values().next().value!);
}
