import { KeyServerError } from '../model/key-server-errors.js';
import type { PrincipalRow } from './engine-model.js';
import { FIXED_ROLE } from './engine-roles.js';
import type { EngineStore } from './engine-store.port.js';

/** How many principals one read of the scan takes. */
const PAGE = 500;

/**
 * A change to the principals an operation is about to write: a principal's new row, a principal
 * deleted, or a membership ended. The check reads the store as it would be after it.
 */
export type PrincipalChange =
  | { readonly kind: 'put'; readonly row: PrincipalRow }
  | { readonly kind: 'delete'; readonly row: PrincipalRow }
  | { readonly kind: 'leave'; readonly groupId: string; readonly memberId: string };

/**
 * docs/spec.md §4.8: the key server always keeps an administrator, an enabled user or service holding
 * `admin` itself or through an enabled group it belongs to. A change that would leave none (a role
 * taken away, a principal or group disabled or deleted, a membership ended) is 409 `CONFLICT` with
 * reason `LAST_ADMIN`, before anything is written. It runs inside the operation's unit of the store,
 * so of concurrent changes that each leave the other's administrator, one is refused (on PostgreSQL,
 * the serializable unit sees both read what the other writes and runs one again).
 */
export async function refuseLosingLastAdmin(store: EngineStore, change: PrincipalChange): Promise<void> {
  if (!(await takesAdminAway(store, change))) return;
  if (await anyAdminAfter(store, change)) return;
  const reason = 'LAST_ADMIN';
  throw new KeyServerError('CONFLICT', `${describe(change)} would leave no administrator (no enabled user or service holding admin)`, {
    reason,
  });
}

/** Whether the change takes admin from the principal or group it is about (else nobody loses it). */
async function takesAdminAway(store: EngineStore, change: PrincipalChange): Promise<boolean> {
  if (change.kind === 'leave') {
    const group = await store.principalById(change.groupId);
    return group !== undefined && grantsAdmin(group);
  }
  const before = await store.principalById(change.row.principalId);
  if (before === undefined) return false;
  if (before.kind === 'group') return grantsAdmin(before) && (change.kind === 'delete' || !grantsAdmin(change.row));
  if (!(await holdsAdmin(store, before, undefined))) return false;
  return change.kind === 'delete' || !(await holdsAdmin(store, change.row, change));
}

/** Whether some enabled user or service holds admin once the change is made: a scan by name, ending at the first. */
async function anyAdminAfter(store: EngineStore, change: PrincipalChange): Promise<boolean> {
  let after: string | undefined;
  for (;;) {
    const page = await store.principalsAfter(after, PAGE);
    for (const stored of page) {
      const row = rowAfter(stored, change);
      if (row !== undefined && row.kind !== 'group' && (await holdsAdmin(store, row, change))) return true;
    }
    if (page.length < PAGE) return false;
    after = page[page.length - 1]!.name;
  }
}

/** An enabled principal holding admin itself or through an enabled group, the change made (if any). */
async function holdsAdmin(store: EngineStore, row: PrincipalRow, change: PrincipalChange | undefined): Promise<boolean> {
  if (row.disabled) return false;
  if (row.roles.includes(FIXED_ROLE)) return true;
  for (const groupId of await store.groupIdsOf(row.principalId)) {
    if (change?.kind === 'leave' && change.groupId === groupId && change.memberId === row.principalId) continue;
    const stored = await store.principalById(groupId);
    const group = stored === undefined || change === undefined ? stored : rowAfter(stored, change);
    if (group !== undefined && grantsAdmin(group)) return true;
  }
  return false;
}

/** The row as it will be: replaced by a `put`, gone after a `delete`. */
function rowAfter(row: PrincipalRow, change: PrincipalChange): PrincipalRow | undefined {
  if (change.kind === 'leave' || change.row.principalId !== row.principalId) return row;
  return change.kind === 'put' ? change.row : undefined;
}

function grantsAdmin(row: PrincipalRow): boolean {
  return !row.disabled && row.roles.includes(FIXED_ROLE);
}

function describe(change: PrincipalChange): string {
  if (change.kind === 'leave') return 'ending this membership';
  return change.kind === 'delete' ? `deleting ${change.row.name}` : `this change to ${change.row.name}`;
}
