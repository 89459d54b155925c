import test from 'ava';
import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';
import { PostgresEngineStore } from '../../src/keyserver/store/postgres-engine-store.js';
import { startTestPostgres } from '../_support/postgres.js';
import { skipAll } from '../_support/skip.js';
import { durableStoreBackupContract } from './durable-store-backup.contract.js';

const postgres = startTestPostgres();
test.after.always(() => postgres.stop());
const keyring = new MasterKeyring([generateMasterKey()]);
let schemas = 0;

if (postgres.url === undefined) skipAll('postgres store backup contract', postgres.reason!);
else {
  const url = postgres.url;
  durableStoreBackupContract('postgres', {
    keyId: keyring.current.id,
    open: () => PostgresEngineStore.open({ url, keyring, schema: `backup_${++schemas}` }),
  });
}
