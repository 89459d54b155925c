import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { SqliteEngineStore } from '../../src/keyserver/store/sqlite-engine-store.js';
import { durableStoreBackupContract } from './durable-store-backup.contract.js';

const keyring = new MasterKeyring([generateMasterKey()]);

durableStoreBackupContract('sqlite', { keyId: keyring.current.id, open: async () => new SqliteEngineStore(':memory:', keyring) });
