import { MemoryEngineStore } from '../../src/keyserver/engine/memory-engine-store.js';
import { SqliteEngineStore } from '../../src/keyserver/engine/sqlite-engine-store.js';
import { engineStoreDirectoryContract } from './engine-store-directory.contract.js';
import { engineStoreContract } from './engine-store.contract.js';

engineStoreContract('memory', () => new MemoryEngineStore());
engineStoreContract('sqlite', () => new SqliteEngineStore(':memory:'));
engineStoreDirectoryContract('memory', () => new MemoryEngineStore());
engineStoreDirectoryContract('sqlite', () => new SqliteEngineStore(':memory:'));
