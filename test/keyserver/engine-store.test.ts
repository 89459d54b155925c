import { CachedEngineStore } from '../../src/keyserver/engine/cached-engine-store.js';
import { MemoryEngineStore } from '../../src/keyserver/engine/memory-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/engine/sqlite-engine-store.js';
import { engineStoreDirectoryContract } from './engine-store-directory.contract.js';
import { engineStoreContract } from './engine-store.contract.js';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';

const keyring = new MasterKeyring([generateMasterKey()]);

engineStoreContract('memory', () => new MemoryEngineStore());
engineStoreContract('sqlite', () => new SqliteEngineStore(':memory:', keyring));
engineStoreContract('sqlite, cached', () => new CachedEngineStore(new SqliteEngineStore(':memory:', keyring)));
engineStoreDirectoryContract('memory', () => new MemoryEngineStore());
engineStoreDirectoryContract('sqlite', () => new SqliteEngineStore(':memory:', keyring));
engineStoreDirectoryContract('sqlite, cached', () => new CachedEngineStore(new SqliteEngineStore(':memory:', keyring)));
