import { existsSync } from 'node:fs';
import { ConfigError } from '../config-error.js';
import { PostgresEngineStore } from '../store/postgres-engine-store.js';
import { SqliteEngineStore } from '../store/sqlite-engine-store.js';
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

/**
 * `keygate keyserver rotate-master-key --postgres URL`: as above, on the store in PostgreSQL. It holds
 * the store's serving lock exclusively throughout, so it is refused (before any key is written) while
 * any daemon serves the store, and no daemon starts until it is done: a daemon serving meanwhile would
 * seal new rows under a key the rotation then drops.
 */
export async function rotatePostgresMasterKey(settings: MasterKeySettings & { readonly postgresUrl: string }): Promise<Rotation> {
  if (settings.key === undefined && settings.file === undefined) {
    throw new ConfigError('rotate-master-key --postgres: give --master-key-file FILE or TE_KEYSERVER_MASTER_KEY');
  }
  const file = settings.file;
  if (file !== undefined && !existsSync(file)) throw new ConfigError(`rotate-master-key: master key file ${file}: not found`);
  const given = settings.key !== undefined ? loadMasterKeys(settings).keyring : readKeyFile(file!);
  const store = await PostgresEngineStore.open({ url: settings.postgresUrl, keyring: given, servingLock: 'exclusive' });
  try {
    const oldIds = await store.keyIdsInUse();
    if (file === undefined) return { oldIds, newId: given.current.id, rows: await store.rewrap() };
    const fresh = generateMasterKey();
    const both = [fresh, ...given.ids.map((id) => given.key(id))];
    writeKeyFile(file, both);
    const rows = await store.rewrap(new MasterKeyring(both));
    writeKeyFile(file, [fresh]);
    return { oldIds, newId: fresh.id, rows, file };
  } finally {
    await store.close();
  }
}
