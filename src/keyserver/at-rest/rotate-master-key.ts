import { existsSync } from 'node:fs';
import { ConfigError } from '../config-error.js';
import { SqliteEngineStore } from '../engine/sqlite-engine-store.js';
import { defaultMasterKeyFile, loadMasterKeys, type MasterKeySettings, readKeyFile, writeKeyFile } from './master-key-source.js';
import { generateMasterKey, MasterKeyring } from './master-keys.js';
import { storeLockFile, WriterLock } from './writer-lock.js';

export interface Rotation {
  /** The key ids the rows were sealed under before. */
  readonly oldIds: readonly string[];
  readonly newId: string;
  /** How many sealed values were rewritten. */
  readonly rows: number;
  /** The key file that now holds the new key only; absent when the keys came from the environment. */
  readonly file?: string;
}

/**
 * `keygate keyserver rotate-master-key`: refused, naming the holder, while a key server (a daemon or
 * an embedded engine) holds the store, since it would go on sealing under the key this drops; it holds
 * the store's writer lock itself while it runs. Rewraps every sealed row under a new
 * master key. With a key file, the new key is generated and written first, ahead of the old one, so
 * that a crash at any point leaves a file that opens every row; once the rows are rewrapped (one
 * transaction), the file keeps the new key alone. With TE_KEYSERVER_MASTER_KEY the operator lists the
 * new key first and the old one after it, and drops the old one once this has run.
 */
export async function rotateMasterKey(settings: MasterKeySettings): Promise<Rotation> {
  if (settings.dataPath === ':memory:') throw new ConfigError('rotate-master-key: --data must name a file');
  if (!existsSync(settings.dataPath)) throw new ConfigError(`rotate-master-key: ${settings.dataPath}: not found`);
  const lock = WriterLock.acquire(storeLockFile(settings.dataPath), 'rotate-master-key', settings.dataPath);
  try {
    return await rotateHolding(settings);
  } finally {
    lock.release();
  }
}

async function rotateHolding(settings: MasterKeySettings): Promise<Rotation> {
  if (settings.key !== undefined) {
    const { keyring } = loadMasterKeys(settings);
    return { ...(await rewrap(settings.dataPath, keyring)), newId: keyring.current.id };
  }
  const file = settings.file ?? defaultMasterKeyFile(settings.dataPath);
  if (!existsSync(file)) throw new ConfigError(`rotate-master-key: master key file ${file}: not found`);
  const old = readKeyFile(file);
  const fresh = generateMasterKey();
  const both = [fresh, ...old.ids.map((id) => old.key(id))];
  writeKeyFile(file, both);
  const result = await rewrap(settings.dataPath, new MasterKeyring(both));
  writeKeyFile(file, [fresh]);
  return { ...result, newId: fresh.id, file };
}

async function rewrap(dataPath: string, keyring: MasterKeyring): Promise<{ oldIds: string[]; rows: number }> {
  const store = new SqliteEngineStore(dataPath, keyring);
  try {
    const oldIds = await store.keyIdsInUse();
    return { oldIds, rows: store.rewrap() };
  } finally {
    await store.close();
  }
}
