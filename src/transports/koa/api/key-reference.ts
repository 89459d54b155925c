import { aliasOf, type Resolved } from '../../../wire/alias.js';
import type { RequestAudit } from '../audit/audit-scope.js';

/**
 * The record of a request that named its key by alias (docs/spec.md §4.23 item 3, §9.1): the alias is
 * noted from the start (api-route.ts), and the ttag the key server resolved it to becomes the record's
 * `object` once the key server answered with it (`resolved`, or a key view's `ttag`).
 */
export function noteResolved(
  audit: RequestAudit,
  reference: string,
  resolved: string | undefined,
  object: (ttag: string) => string = (ttag) => ttag,
): void {
  if (resolved !== undefined && aliasOf(reference) !== undefined) audit.note({ object: object(resolved) });
}

/** The answer without `resolved`: the record's, not part of what /api answers. */
export function withoutResolved<T extends Resolved>(answer: T): Omit<T, 'resolved'> {
  const { resolved: _resolved, ...shown } = answer;
  return shown;
}
