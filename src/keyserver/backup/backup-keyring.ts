import { existsSync } from 'node:fs';
import { defaultMasterKeyFile, loadMasterKeys } from '../at-rest/master-key-source.js';
import type { MasterKeyring } from '../at-rest/master-keys.js';
import type { StoreLocation } from './open-durable-store.js';

/** Where the master keys come from, as the daemon takes them: TE_KEYSERVER_MASTER_KEY, or a key file. */
export interface BackupKeys {
  readonly key?: string;
  readonly file?: string;
}

/**
 * The keyring the daemon would use on `location`: the variable, the given file, or the key file
 * beside a SQLite data file. Unlike the daemon, a backup or restore never generates a key: with none
 * of the three it answers undefined, and the caller names the key it needed.
 */
export function backupKeyring(location: StoreLocation, keys: BackupKeys): MasterKeyring | undefined {
  if (keys.key !== undefined || keys.file !== undefined) return loadMasterKeys({ dataPath: ':memory:', ...keys }).keyring;
  if (location.kind !== 'sqlite') return undefined;
  const file = defaultMasterKeyFile(location.path);
  return existsSync(file) ? loadMasterKeys({ dataPath: location.path, file }).keyring : undefined;
}
