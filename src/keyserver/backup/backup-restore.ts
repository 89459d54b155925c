import { BackupError } from './backup-error.js';
import { readBackupFile, writeBackupFile } from './backup-file.js';
import { type BackupHeader, decodeBackup, encodeBackup } from './backup-format.js';
import { type BackupKeys, backupKeyring } from './backup-keyring.js';
import { holdForRestore, openDurableStore, type StoreLocation } from './open-durable-store.js';

/** `keygate keyserver backup` and `restore`: the store, its master keys, the backup file. */
export interface BackupRequest {
  readonly location: StoreLocation;
  readonly keys: BackupKeys;
  readonly file: string;
  /** Backup only: replace an existing file. */
  readonly force?: boolean;
}

/**
 * Takes a consistent snapshot of a store (one read transaction: the key server that owns it may go
 * on serving) and writes it to `file`. The master key must be given: it opens the store and
 * authenticates the file.
 */
export async function takeBackup(request: BackupRequest, now: Date): Promise<BackupHeader> {
  const keyring = backupKeyring(request.location, request.keys);
  if (keyring === undefined)
    throw new BackupError('no master key: give TE_KEYSERVER_MASTER_KEY or --master-key-file (the key the store is sealed under)');
  const store = await openDurableStore(request.location, keyring, false);
  let encoded: ReturnType<typeof encodeBackup>;
  try {
    encoded = encodeBackup(await store.snapshot(), keyring, now);
  } finally {
    await store.close();
  }
  writeBackupFile(request.file, encoded.bytes, request.force === true);
  return encoded.header;
}

/**
 * Restores a backup into an empty store. The file is checked whole first (its end, its master keys,
 * its MAC, its counts): a refused file writes nothing, not even an empty store. The store, held for
 * writing, then takes every row in one unit, or refuses, writing nothing, if it is not empty.
 */
export async function restoreBackup(request: BackupRequest): Promise<BackupHeader> {
  const bytes = readBackupFile(request.file);
  const keyring = backupKeyring(request.location, request.keys);
  let decoded: ReturnType<typeof decodeBackup>;
  try {
    decoded = decodeBackup(bytes, keyring);
  } catch (error) {
    if (error instanceof BackupError) throw new BackupError(`${request.file}: ${error.message}`);
    throw error;
  }
  const lock = holdForRestore(request.location);
  try {
    const store = await openDurableStore(request.location, decoded.keyring, true);
    try {
      await store.restore(decoded.snapshot);
    } finally {
      await store.close();
    }
  } finally {
    lock?.release();
  }
  return decoded.header;
}
