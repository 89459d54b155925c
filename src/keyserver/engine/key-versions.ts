import { keyLengthForNid } from '../../wire/key-length.js';
import type { KeyVersionView } from '../../wire/key-view.js';
import type { RandomSource } from '../model/random-source.js';
import { KeyServerError, KeyVersionNotFoundError, KeyVersionRetiredError, KeyVersionsExhaustedError } from '../model/key-server-errors.js';
import type { EngineStore } from './engine-store.port.js';
import type { KeyRow, KeyVersionRow } from './engine-model.js';

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

/** One version's material and number. The material is opened only here (a store keeps it sealed until read). */
function versionOf(key: KeyRow, version: number): { version: number; material: Buffer } {
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
  if (!Number.isSafeInteger(version) || version < 1 || version > newestVersion(key)) throw new KeyVersionNotFoundError(version, newestVersion(key));
  if (version < key.minVersion) throw new KeyVersionRetiredError(version, key.minVersion);
  return versionOf(key, version);
}

/** Every version as the key view lists it, oldest first (never the material). */
export function versionViews(key: KeyRow): KeyVersionView[] {
  const created = [{ version: 1, createdAt: key.createdAt }, ...key.laterVersions.map(({ version, createdAt }) => ({ version, createdAt }))];
  return created.map(({ version, createdAt }) => ({
    version,
    createdAt: new Date(createdAt).toISOString(),
    state: version < key.minVersion ? 'retired' : 'active',
  }));
}

/** What adding a version needs: the store, the random source and the clock of the engine. */
export interface VersionMaker {
  readonly store: EngineStore;
  readonly random: RandomSource;
  readonly now: () => number;
  readonly maxKeyVersions: number;
}

/**
 * Adds version n+1 to the key: fresh material of the key's length from the engine's random source.
 * Answers the key as stored after it. Authorization is the caller's (a rotation by hand, or a due one).
 * A key holding `maxKeyVersions` versions already is KEY_VERSIONS_EXHAUSTED (docs/spec.md §4.22 item 2).
 */
export async function addKeyVersion(maker: VersionMaker, key: KeyRow): Promise<KeyRow> {
  if (newestVersion(key) >= maker.maxKeyVersions) throw new KeyVersionsExhaustedError(maker.maxKeyVersions);
  const length = keyLengthForNid(key.nid, KeyServerError);
  const added: KeyVersionRow = { version: newestVersion(key) + 1, material: Buffer.from(maker.random.bytes(length)), createdAt: maker.now() };
  try {
    await maker.store.putKeyVersion(key.ttag, added);
  } finally {
    added.material.fill(0);
  }
  const stored = await maker.store.key(key.ttag);
  if (stored === undefined) throw new KeyServerError('KEY_SERVER_FAILED', 'the rotated key is gone');
  return stored;
}
