import type { RandomSource } from '../../crypto/random-source.js';
import { keyLengthForNid } from '../../wire/key-length.js';
import type { KeyVersionView } from '../../wire/key-view.js';
import type { ListResult } from '../../wire/list-result.js';
import {
  BadRequestError,
  KeyServerError,
  KeyVersionNotFoundError,
  KeyVersionRetiredError,
  KeyVersionsExhaustedError,
} from '../model/key-server-errors.js';
import { generateSigningKey } from '../model/signing-keys.js';
import type { KeyRow, KeyVersionRow } from './engine-model.js';
import type { EngineStore } from './engine-store.port.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';

/**
 * A key's versions: version 1 is the key's own material, each rotation adds the next. Encrypt and MAC
 * use the newest; decrypt, MAC verify and export name one, and a version below the key's minVersion is
 * retired: it refuses them. The newest version is never retired (the minimum never exceeds it).
 */

/**
 * The most versions a key may have unless the key server is told otherwise (TE_KEYSERVER_MAX_KEY_VERSIONS,
 * `keygate keyserver --max-key-versions`): each version is kept for good, and the key view lists them.
 */
export const DEFAULT_MAX_KEY_VERSIONS = 100;
/** The highest limit a key server takes. */
export const MAX_KEY_VERSIONS_LIMIT = 10_000;

/** The newest version's number. */
export function newestVersion(key: KeyRow): number {
  return key.laterVersions.at(-1)?.version ?? 1;
}

/**
 * One version's material and number, retired or not (a signing key's public key, docs/spec.md §4.25
 * item 6). The material is opened only here (a store keeps it sealed until read).
 */
export function versionOf(key: KeyRow, version: number): { version: number; material: Buffer } {
  if (version === 1) return { version, material: key.material };
  const found = key.laterVersions.find((stored) => stored.version === version);
  if (found === undefined) throw new KeyVersionNotFoundError(version, newestVersion(key));
  return { version, material: found.material };
}

/** The newest version, for encrypt and MAC. */
export function newestOf(key: KeyRow): { version: number; material: Buffer } {
  return versionOf(key, newestVersion(key));
}

/**
 * A version a request names, for decrypt, MAC verify and export: KEY_VERSION_NOT_FOUND when the key has
 * none such (0, negative, above the newest), KEY_VERSION_RETIRED when it is below the minVersion.
 */
export function usableVersion(key: KeyRow, version: number): { version: number; material: Buffer } {
  if (!Number.isSafeInteger(version) || version < 1 || version > newestVersion(key))
    throw new KeyVersionNotFoundError(version, newestVersion(key));
  if (version < key.minVersion) throw new KeyVersionRetiredError(version, key.minVersion);
  return versionOf(key, version);
}

/** Every version up to `upTo` (all by default), oldest first (never the material). */
export function versionViews(key: KeyRow, upTo = newestVersion(key)): KeyVersionView[] {
  const created = [
    { version: 1, createdAt: key.createdAt },
    ...key.laterVersions.map(({ version, createdAt }) => ({ version, createdAt })),
  ];
  return created
    .filter(({ version }) => version <= upTo)
    .map(({ version, createdAt }) => ({
      version,
      createdAt: new Date(createdAt).toISOString(),
      state: version < key.minVersion ? 'retired' : 'active',
    }));
}

/**
 * How many versions the key view lists: the newest ones, oldest first, with `versionsOmitted` counting
 * the older ones left out (docs/spec.md §4.22 item 1); the versions operation pages through them all.
 */
export const KEY_VIEW_VERSIONS = 20;
/** Page size bounds of the versions operation (docs/spec.md §4.22 item 10). */
export const VERSIONS_PAGE_MAX = 1000;
export const VERSIONS_PAGE_DEFAULT = 100;

/**
 * One page of the key's versions, newest first (docs/spec.md §4.22 item 10): `limit` of them, from
 * below the version the cursor names; `next` names the page's last one when older ones remain. The
 * order is the versions' numbers, which never change: a rotation meanwhile adds only above the first page.
 */
export function versionsPage(
  key: KeyRow,
  query: { readonly limit: number; readonly cursor?: string | undefined },
): ListResult<KeyVersionView> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > VERSIONS_PAGE_MAX) {
    throw new BadRequestError(`limit: an integer from 1 to ${VERSIONS_PAGE_MAX}`);
  }
  const below = query.cursor === undefined ? newestVersion(key) + 1 : Number(decodeCursor(query.cursor, 'versions'));
  if (!Number.isSafeInteger(below) || below < 1) throw new BadRequestError('cursor: not a cursor of this list');
  const items = versionViews(key, below - 1)
    .reverse()
    .slice(0, query.limit);
  const last = items.at(-1);
  const more = last !== undefined && last.version > 1;
  return { items, complete: true, ...(more ? { next: encodeCursor('versions', String(last.version)) } : {}) };
}

/** What adding a version needs: the store, the random source and the clock of the engine. */
export interface VersionMaker {
  readonly store: EngineStore;
  readonly random: RandomSource;
  readonly now: () => number;
  readonly maxKeyVersions: number;
}

/**
 * Adds version n+1 to the key: fresh material of the key's length from the engine's random source, or
 * for a signing key a fresh key pair of its type (docs/spec.md §4.25 item 1).
 * Answers the key as stored after it. Authorization is the caller's (a rotation by hand, or a due one).
 * A key holding `maxKeyVersions` versions already is KEY_VERSIONS_EXHAUSTED (docs/spec.md §4.22 item 2).
 */
export async function addKeyVersion(maker: VersionMaker, key: KeyRow): Promise<KeyRow> {
  if (newestVersion(key) >= maker.maxKeyVersions) throw new KeyVersionsExhaustedError(maker.maxKeyVersions);
  const material =
    key.signing === undefined
      ? Buffer.from(maker.random.bytes(keyLengthForNid(key.nid, KeyServerError)))
      : await generateSigningKey(key.signing.type);
  const added: KeyVersionRow = {
    version: newestVersion(key) + 1,
    material,
    createdAt: maker.now(),
  };
  try {
    await maker.store.putKeyVersion(key.ttag, added);
  } finally {
    added.material.fill(0);
  }
  const stored = await maker.store.key(key.ttag);
  if (stored === undefined) throw new KeyServerError('KEY_SERVER_FAILED', 'the rotated key is gone');
  return stored;
}
