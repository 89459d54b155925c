import type { AuditKeyUse } from './audit.js';

/** How many distinct keys and versions a batch's record names (docs/spec.md §9.1 `keys`). */
export const AUDIT_BATCH_KEYS_MAX = 32;

/**
 * The distinct keys and versions a batch's items named, in the order first named (docs/spec.md §9.1):
 * at most AUDIT_BATCH_KEYS_MAX, so a record stays small whatever the batch, with `keysOmitted` counting
 * the rest. A use without a version is dropped when the same key is named with one.
 */
export function batchKeyUses(uses: Iterable<AuditKeyUse>): { keys: AuditKeyUse[]; keysOmitted?: number } {
  const versioned = new Set<string>();
  const all = [...uses];
  for (const use of all) if (use.version !== undefined) versioned.add(use.ttag);
  const seen = new Set<string>();
  const distinct: AuditKeyUse[] = [];
  for (const use of all) {
    if (use.version === undefined && versioned.has(use.ttag)) continue;
    const id = `${use.ttag} ${use.version ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    distinct.push(use.version === undefined ? { ttag: use.ttag } : { ttag: use.ttag, version: use.version });
  }
  const keys = distinct.slice(0, AUDIT_BATCH_KEYS_MAX);
  return distinct.length > keys.length ? { keys, keysOmitted: distinct.length - keys.length } : { keys };
}
