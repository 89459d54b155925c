import { contextFault, type EncryptionContext } from '../../wire/encryption-context.js';

/** How many distinct contexts a batch's record names (docs/spec.md §9.1 `contexts`). */
export const AUDIT_CONTEXTS_MAX = 16;

/** The context fields of a record (docs/spec.md §4.5b item 5, §9.1), as an operation names them. */
export interface AuditContextFields {
  readonly context?: EncryptionContext;
  readonly contexts?: readonly EncryptionContext[];
  readonly contextsOmitted?: number;
}

/**
 * The context fields a record may carry of `about`: where the audit bounds them, so that no store is
 * ever handed more (docs/operations.md "What is chained, and with which keys"). A context is kept only
 * when it holds docs/spec.md §4.5b item 1 (at most 16 members, each name 1..128 characters of its set,
 * each value 0..256 characters obeying the text rule) and has a member; anything else was refused at
 * the gateway and bound to nothing, so it is left out, never recorded. `contexts` keeps the distinct
 * ones in the order first named, at most AUDIT_CONTEXTS_MAX, and `contextsOmitted` counts the distinct
 * ones past those, plus any the caller already counted. A record therefore holds at most 17 contexts
 * of 16 members of at most 128 + 256 characters.
 */
export function auditContextFields(about: AuditContextFields): AuditContextFields {
  const fields: { context?: EncryptionContext; contexts?: EncryptionContext[]; contextsOmitted?: number } = {};
  if (about.context !== undefined && isRecordable(about.context)) fields.context = copyOf(about.context);
  let omitted = countOf(about.contextsOmitted);
  if (about.contexts !== undefined) {
    const distinct = distinctContexts(about.contexts);
    if (distinct.length > 0) fields.contexts = distinct.slice(0, AUDIT_CONTEXTS_MAX);
    omitted += Math.max(0, distinct.length - AUDIT_CONTEXTS_MAX);
  }
  if (omitted > 0) fields.contextsOmitted = omitted;
  return fields;
}

/**
 * A context's `[name, value]` pairs in ascending byte order of the names' UTF-8 (docs/spec.md §9.3):
 * the form the chain's canonical content holds it in, whatever order its members were given in.
 */
export function auditContextPairs(context: EncryptionContext): [string, string][] {
  return Object.keys(context)
    .sort(byUtf8)
    .map((name) => [name, context[name] as string]);
}

/** The recordable contexts of a batch, each once (by its pairs), in the order first named. */
function distinctContexts(contexts: readonly EncryptionContext[]): EncryptionContext[] {
  const seen = new Set<string>();
  const distinct: EncryptionContext[] = [];
  for (const context of contexts) {
    if (!isRecordable(context)) continue;
    const id = JSON.stringify(auditContextPairs(context));
    if (seen.has(id)) continue;
    seen.add(id);
    distinct.push(copyOf(context));
  }
  return distinct;
}

function isRecordable(context: unknown): context is EncryptionContext {
  return contextFault(context) === undefined && Object.keys(context as object).length > 0;
}

/**
 * A plain copy, its members in the order the chain seals them, each an own data property (a member
 * named `__proto__` stays a member).
 */
function copyOf(context: EncryptionContext): EncryptionContext {
  return Object.fromEntries(auditContextPairs(context));
}

function countOf(value: number | undefined): number {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** UTF-8 byte order: code point order, which UTF-16 code unit order departs from only past U+D7FF. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
