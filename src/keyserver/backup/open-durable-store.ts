import { existsSync } from 'node:fs';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import { storeLockFile, WriterLock } from '../at-rest/writer-lock.js';
import type { DurableEngineStore } from '../engine/engine-store.port.js';
import { SqliteEngineStore } from '../store/sqlite-engine-store.js';
import { BackupError } from './backup-error.js';

/** Where a backup is read from or restored into: a SQLite file, or a PostgreSQL database. */
export type StoreLocation = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

/**
 * Opens the store at `location` with the keyring its rows are sealed under. `create: false` (a backup)
 * refuses a SQLite file that is not there rather than make an empty one.
 */
export async function openDurableStore(location: StoreLocation, keyring: MasterKeyring, create: boolean): Promise<DurableEngineStore> {
  if (location.kind === 'postgres') {
    // Held shared, as a serving key server holds it: a backup reads beside the daemons, and a
    // master-key rotation (which holds it exclusively) is not run meanwhile.
    const { PostgresEngineStore } = await import('../store/postgres-engine-store.js');
    return PostgresEngineStore.open({ url: location.url, keyring });
  }
  if (location.path === ':memory:') throw new BackupError('--data must name a file');
  if (!create && !existsSync(location.path)) throw new BackupError(`${location.path}: not found`);
  return new SqliteEngineStore(location.path, keyring);
}

/**
 * A restore writes the store: a SQLite file is held by its writer lock meanwhile, so it is refused,
 * naming the holder, while a key server or a gateway holds it, and no key server starts on it halfway
 * (docs/operations.md "One writer per store"). A backup only reads, beside the serving writer.
 */
export function holdForRestore(location: StoreLocation): { release(): void } | undefined {
  if (location.kind !== 'sqlite' || location.path === ':memory:') return undefined;
  return WriterLock.acquire(storeLockFile(location.path), 'restore', location.path);
}

/** How a location is shown in output: a URL without its password. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return location.path;
  try {
    const url = new URL(location.url);
    url.password = '';
    url.username = '';
    return url.toString();
  } catch {
    return 'postgres';
  }
}
