import { MemoryEngineStore } from '../../src/keyserver/engine/memory-engine-store.js';
import { engineStoreDirectoryContract } from './engine-store-directory.contract.js';

engineStoreDirectoryContract('memory', () => new MemoryEngineStore());
