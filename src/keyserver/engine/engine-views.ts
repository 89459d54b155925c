import type { GrantConditions } from '../../wire/acl.js';
import type { Identity } from '../../wire/identity.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import { EXPORT_ALGO, type KeyState, type KeySummary, type KeyView } from '../../wire/key-view.js';
import type { PrincipalView } from '../../wire/principal.js';
import type { KeyAccessList, Requester } from '../model/acl.js';
import { KeyDeletedError, KeyDisabledError, KeyExpiredError, KeyPendingDeletionError, KeyServerError } from '../model/key-server-errors.js';
import type { KeyRow, PrincipalRow } from './engine-model.js';
import type { EngineStore } from './engine-store.port.js';
import { KEY_VIEW_VERSIONS, newestVersion, versionViews } from './key-versions.js';
import { nextRotationAt } from './rotation-schedule.js';

/** How the contracts show a principal (docs/spec.md §2.2). */
export function identityOf(row: PrincipalRow): Identity {
  return { user: row.name, systemId: row.systemId, principalId: row.principalId };
}

const NO_CONDITIONS: ReadonlyMap<string, GrantConditions> = new Map();

export function aclOf(key: KeyRow): KeyAccessList {
  return { owner: key.owner, entries: key.acl, conditions: key.aclConditions ?? NO_CONDITIONS };
}

/**
 * The principal asking, with the groups it belongs to, by name: group entries in an ACL count for
 * members (docs/spec.md §4.7, §4.3 item 4; §4.5b item 4 orders conditional entries by group name). A
 * disabled group grants nothing.
 */
export async function requesterOf(row: PrincipalRow, store: EngineStore): Promise<Requester> {
  const groups: PrincipalRow[] = [];
  for (const id of await store.groupIdsOf(row.principalId)) {
    const group = await store.principalById(id);
    if (group?.disabled === false) groups.push(group);
  }
  groups.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { principalId: row.principalId, groupIds: groups.map((group) => group.principalId) };
}

/** A principal that is gone (deleted) but still named by a key: shown, never resolvable. */
export function missingPrincipal(principalId: string): PrincipalRow {
  return { name: `#${principalId}`, kind: 'user', systemId: 0, principalId, disabled: true, roles: [], createdAt: 0 };
}

/** A key is expired when it was expired on purpose or its expiry time has passed. */
export function isExpired(key: KeyRow, now: number): boolean {
  return key.expired || (key.expiresAt !== undefined && key.expiresAt <= now);
}

/** A key waiting for its scheduled deletion (docs/spec.md §4.23 item 5), not destroyed yet. */
export function isPendingDeletion(key: KeyRow): boolean {
  return key.deletionAt !== undefined && key.deletedAt === undefined;
}

/**
 * The key's state as the view names it: the first that holds of deleted, pending-deletion, expired,
 * disabled, active (docs/spec.md §4.23 item 4, §4.6: expiry wins over disabling).
 */
export function keyStateOf(key: KeyRow, now: number): KeyState {
  if (key.deletedAt !== undefined) return 'deleted';
  if (isPendingDeletion(key)) return 'pending-deletion';
  if (isExpired(key, now)) return 'expired';
  return key.disabled ? 'disabled' : 'active';
}

/**
 * Export and cryptography need a key in none of the states that refuse its material, checked in the
 * states' order: deleted (KEY_DELETED), pending deletion (KEY_PENDING_DELETION), expired (KEY_EXPIRED),
 * disabled (KEY_DISABLED); docs/spec.md §4.6, §4.23 item 5.
 */
export function requireUsableKey(key: KeyRow, now: number): void {
  requireLiveKey(key);
  if (isExpired(key, now)) throw new KeyExpiredError();
  if (key.disabled) throw new KeyDisabledError();
}

/**
 * A key neither destroyed (KEY_DELETED) nor waiting for its destruction (KEY_PENDING_DELETION): what
 * rotation (by hand or scheduled), disable and enable need (docs/spec.md §4.23 item 5).
 */
export function requireLiveKey(key: KeyRow): void {
  requireNotDeleted(key);
  if (isPendingDeletion(key)) throw new KeyPendingDeletionError();
}

/** A tombstone's writes are KEY_DELETED (docs/spec.md §4.23 items 2, 3 and 5): tags, aliases, rotation, states. */
export function requireNotDeleted(key: KeyRow): void {
  if (key.deletedAt !== undefined) throw new KeyDeletedError();
}

/**
 * The key view (docs/spec.md §4.6; never the material), as of version `asOf` (the newest by default: a
 * replayed rotation answers the view as of the version it made). It lists the newest KEY_VIEW_VERSIONS
 * versions, oldest first, and counts the older ones in `versionsOmitted` (docs/spec.md §4.22 item 1).
 */
export async function keyView(key: KeyRow, store: EngineStore, now: number, asOf = newestVersion(key)): Promise<KeyView> {
  const versions = versionViews(key, asOf);
  const omitted = Math.max(0, versions.length - KEY_VIEW_VERSIONS);
  const { tags, ...summary } = await keySummary(key, store, now, asOf);
  return {
    ...summary,
    versions: versions.slice(omitted),
    ...(omitted === 0 ? {} : { versionsOmitted: omitted }),
    tags,
  };
}

/** The key as the key list shows it (docs/spec.md §4.23 item 1): the view without its versions. */
export async function keySummary(key: KeyRow, store: EngineStore, now: number, asOf = newestVersion(key)): Promise<KeySummary> {
  const owner = (await store.principalById(key.owner)) ?? missingPrincipal(key.owner);
  return {
    ttag: key.ttag,
    ...typeView(key),
    ...(key.label === undefined ? {} : { label: key.label }),
    owner: identityOf(owner),
    state: keyStateOf(key, now),
    createdAt: new Date(key.createdAt).toISOString(),
    ...(key.expiresAt === undefined ? {} : { expiresAt: new Date(key.expiresAt).toISOString() }),
    version: asOf,
    minVersion: key.minVersion,
    ...scheduleView(key),
    tags: { ...key.tags },
    ...(key.deletionAt === undefined ? {} : { deletionAt: new Date(key.deletionAt).toISOString() }),
    ...(key.deletedAt === undefined ? {} : { deletedAt: new Date(key.deletedAt).toISOString() }),
    ...(key.lastUsedAt === undefined
      ? {}
      : {
          lastUsedAt: new Date(key.lastUsedAt).toISOString(),
          ...(key.lastUsedOperation === undefined ? {} : { lastUsedOperation: key.lastUsedOperation }),
        }),
  };
}

/** What the view says of the key's type (docs/spec.md §4.25 item 1): an `aes` key's length, or a signing key's settings. */
function typeView(key: KeyRow): Pick<KeySummary, 'type' | 'keyLen' | 'algo' | 'alg' | 'exportable' | 'published' | 'jwtMaxLifetime'> {
  const { signing } = key;
  if (signing === undefined) return { type: 'aes', keyLen: keyLengthForNid(key.nid, KeyServerError), algo: EXPORT_ALGO };
  const { type, alg, exportable, published, jwtMaxLifetime } = signing;
  return { type, alg, exportable, published, jwtMaxLifetime };
}

/** A key's rotation period and when it next falls due, for a key that has one. */
function scheduleView(key: KeyRow): { rotationPeriod?: string; nextRotationAt?: string } {
  const due = nextRotationAt(key);
  if (key.rotationPeriod === undefined || due === undefined) return {};
  return { rotationPeriod: key.rotationPeriod, nextRotationAt: new Date(due).toISOString() };
}

/** The principal view (docs/spec.md §4.8; never the verifier). */
export function principalView(row: PrincipalRow): PrincipalView {
  return {
    name: row.name,
    kind: row.kind,
    systemId: row.systemId,
    principalId: row.principalId,
    ...(row.displayName === undefined ? {} : { displayName: row.displayName }),
    disabled: row.disabled,
    roles: [...row.roles],
    createdAt: new Date(row.createdAt).toISOString(),
    ...(row.senderKey === undefined ? {} : { jkt: row.senderKey.jkt }),
    ...(row.kind === 'service' ? { delegates: [...(row.delegates ?? [])] } : {}),
    ...(row.provisionedBy === undefined ? {} : { provisionedBy: row.provisionedBy }),
  };
}

/** Principal views of the ids that still name a principal, sorted by name. */
export async function principalViews(store: EngineStore, ids: readonly string[]): Promise<PrincipalView[]> {
  const rows: PrincipalRow[] = [];
  for (const id of ids) {
    const row = await store.principalById(id);
    if (row !== undefined) rows.push(row);
  }
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(principalView);
}
