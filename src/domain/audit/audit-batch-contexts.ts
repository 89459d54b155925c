import { canonicalContext, contextPairs, type EncryptionContext, isEmptyContext } from '../../wire/encryption-context.js';

/** How many distinct contexts a batch's record names (docs/spec.md §9.1 `contexts`). */
export const AUDIT_BATCH_CONTEXTS_MAX = 16;

/** A context as a record names it: its members in canonical order (docs/spec.md §4.5b item 2). */
function recorded(context: EncryptionContext): EncryptionContext {
  return Object.fromEntries(contextPairs(context));
}

/**
 * What a single request's record names of its encryption context (docs/spec.md §9.1 `context`): the
 * context when it has a member, nothing for none or `{}`.
 */
export function requestContext(context: EncryptionContext | undefined): { context?: EncryptionContext } {
  return context === undefined || isEmptyContext(context) ? {} : { context: recorded(context) };
}

/**
 * The distinct non-empty contexts a batch's items named, in the order first named (docs/spec.md §9.1
 * `contexts`), two being the same when their canonical forms are (member order does not count): at
 * most AUDIT_BATCH_CONTEXTS_MAX, with `contextsOmitted` counting the rest; nothing when none named one.
 */
export function batchContexts(contexts: Iterable<EncryptionContext | undefined>): {
  contexts?: EncryptionContext[];
  contextsOmitted?: number;
} {
  const seen = new Set<string>();
  const distinct: EncryptionContext[] = [];
  for (const context of contexts) {
    if (context === undefined || isEmptyContext(context)) continue;
    const id = Buffer.from(canonicalContext(context)).toString('base64');
    if (seen.has(id)) continue;
    seen.add(id);
    distinct.push(recorded(context));
  }
  if (distinct.length === 0) return {};
  const named = distinct.slice(0, AUDIT_BATCH_CONTEXTS_MAX);
  return distinct.length > named.length ? { contexts: named, contextsOmitted: distinct.length - named.length } : { contexts: named };
}
